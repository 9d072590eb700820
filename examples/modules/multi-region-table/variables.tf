variable "name" {
  description = "Table name, the same in every region."
  type        = string
  default     = "orders"
}

variable "replica_regions" {
  description = "Regions that hold a replica, besides the region of the aws provider."
  type        = list(string)
  default     = ["eu-west-1", "ap-southeast-2"]
}

variable "writes_per_second" {
  description = "Peak writes per second of the whole table, in all regions together: every replica applies every write."
  type        = number
  default     = 400
}

variable "reads_per_second" {
  description = "Peak reads per second in the busiest region."
  type        = number
  default     = 1200
}
