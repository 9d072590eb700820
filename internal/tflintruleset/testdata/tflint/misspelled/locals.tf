locals {
  common_segments = {
    customer_id = { kind = "id", max_lenght = 26 }
    order_id    = { kind = "id", max_length = 26 }
  }
  entities = { event = { key = "EVENT#{event_id}" } }
  tables = {
    events = { traffic = { writes_per_second = 20, reads_per_secnod = 5 } }
  }
}
