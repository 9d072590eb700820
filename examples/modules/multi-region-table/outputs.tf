output "table_arn" {
  description = "ARN of the table in the aws provider's region."
  value       = aws_dynamodb_table.this.arn
}

output "replica_arns" {
  description = "ARN of each replica, by region."
  value       = { for r in aws_dynamodb_table.this.replica : r.region_name => r.arn }
}
