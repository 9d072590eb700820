variable "name" {
  description = "Table name, the same in every region."
  type        = string
  default     = "orders"
}

variable "region" {
  description = "Region of the table itself (aws_dynamodb_table's region): the first replica, and the Region `cost` prices first."
  type        = string
  default     = "us-east-1"
}

variable "replica_regions" {
  description = "Regions that hold a replica, besides var.region. A Region the price table lacks needs its prices in the design."
  type        = list(string)
  default     = ["eu-west-1", "ap-northeast-1"]
}

variable "consistency" {
  description = "eventual (multi-Region eventual consistency) or strong (MRSC: three Regions of one Region set, counting the witness)."
  type        = string
  default     = "eventual"
}

variable "witness_region" {
  description = "Witness Region of an MRSC table with two replicas; null for none."
  type        = string
  default     = null
}

variable "write_shares" {
  description = "Each Region's share of writes_per_second, by Region; null splits the writes equally over the Regions."
  type        = map(number)
  default     = null
}

variable "writes_per_second" {
  description = "Peak writes per second of the whole table, in all regions together: every replica performs every write."
  type        = number
  default     = 400
}

variable "reads_per_second" {
  description = "Peak reads per second in each region (the busiest region's): reads are not replicated."
  type        = number
  default     = 1200
}
