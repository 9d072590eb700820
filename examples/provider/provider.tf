# Everything is optional: the data source and the functions work offline, and the AWS client is only
# built when a dynamokeys_sharded_table is managed (standard AWS chain: AWS_REGION, AWS_PROFILE, shared
# config, AWS_ENDPOINT_URL_DYNAMODB).
provider "dynamokeys" {
  region      = "us-east-1"
  max_retries = 10

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
