terraform {
  required_version = ">= 1.5"

  required_providers {
    # key_schema blocks inside a dynamic global_secondary_index need 6.30 or later.
    aws = {
      source  = "hashicorp/aws"
      version = ">= 6.30"
    }
    dynamokeys = {
      source = "dynamokeys/dynamokeys"
    }
  }
}
