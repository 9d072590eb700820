# Import by table name. Design metadata (templates, segments, sharding, traffic, GSI cardinalities) is not
# stored in DynamoDB: it comes from the configuration on the next plan.
terraform import dynamokeys_sharded_table.orders orders
