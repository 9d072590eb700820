import {
  to = dynamokeys_sharded_table.orders
  id = "orders"
}
