# Everything is optional: the data source and the functions work offline, and the AWS client is only
# built when a dynamokeys_sharded_table is managed (standard AWS chain: AWS_REGION, AWS_PROFILE, shared
# config, AWS_ENDPOINT_URL_DYNAMODB).
provider "dynamokeys" {
  region      = "us-east-1"
  max_retries = 10

  # Tags on every dynamokeys_sharded_table; a table's own tags win (see its tags_all).
  default_tags = {
    tags = { environment = "prod", owner = "platform" }
  }

  # Sign every DynamoDB call with this role's session. The credentials above (or the standard chain) call
  # sts:AssumeRole on first use; the session is cached and renewed.
  assume_role = {
    role_arn     = "arn:aws:iam::123456789012:role/terraform"
    session_name = "terraform"
    external_id  = "platform-ci"
    duration     = "1h"
  }

  policy = {
    enforce        = true         # error findings fail the plan
    disabled_rules = ["DK305"]    # drop findings of these rules
    policy_dirs    = ["./policy"] # extra Rego in packages dynamokeys.custom.*
    eval_timeout   = "2s"
  }
}

# Against a local DynamoDB-API server, e.g. for tests:
# provider "dynamokeys" {
#   region     = "us-east-1"
#   endpoint   = "http://127.0.0.1:8000"
#   access_key = "local"
#   secret_key = "local"
# }
