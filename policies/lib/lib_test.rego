package dynamokeys.lib_test

import data.dynamokeys.lib

test_fmt_groups_thousands if {
	lib.fmt(0) == "0"
	lib.fmt(999) == "999"
	lib.fmt(1000) == "1,000"
	lib.fmt(2500) == "2,500"
	lib.fmt(1234567) == "1,234,567"
	lib.fmt(1000001) == "1,000,001"
	lib.fmt(216000000) == "216,000,000"
	lib.fmt(40001) == "40,001"
	lib.fmt(12345678901) == "12,345,678,901"
	lib.fmt(1234567890123) == "1,234,567,890,123"
}

test_fmt_large_numbers_read_as_numbers if {
	lib.fmt(2457600000000000000) == "2.46e+18"
}

test_fmt_keeps_one_decimal if {
	lib.fmt(156.25) == "156.3"
	lib.fmt(0.5) == "0.5"
	lib.fmt(1000.04) == "1,000" # the decimal rounds to 0 and is dropped, as in Go
	lib.fmt(999.96) == "1,000"
}

test_percent if {
	lib.percent(0.625) == "62.5%"
	lib.percent(1) == "100%"
}

test_unknown_covers_children if {
	lib.unknown("traffic.writes_per_second") with input as {"unknown": ["traffic"]}
	lib.unknown("traffic") with input as {"unknown": ["traffic"]}
	not lib.unknown("traffic_x") with input as {"unknown": ["traffic"]}
	lib.known("segments") with input as {"unknown": ["traffic"]}
}

test_path_string if {
	lib.path_string(["global_secondary_indexes", "by_x", "partition_key", 0]) == "global_secondary_indexes.by_x.partition_key.0"
}

test_on_demand if {
	lib.on_demand with input as {"table": {"billing_mode": ""}}
	lib.on_demand with input as {"table": {}}
	not lib.on_demand with input as {"table": {"billing_mode": "PROVISIONED"}}
}

test_expand_quotes_the_data_file if {
	lib.expand("at most ${max_lsis} LSIs of [${name_characters}], ${partition_write_units} WCU") == "at most 5 LSIs of [A-Za-z0-9_.-], 1,000 WCU"
	lib.expand("no placeholder") == "no placeholder"
	lib.expand("${not_a_limit}") == "${not_a_limit}"
}

# The name heuristics of the AWS provider's tables: whole words of snake_case, kebab-case and camelCase
# names, with the attribute's type.
test_name_hint_matches_whole_words if {
	few := [
		"status", "order_status", "orderStatus", "log_level", "permission_level", "environment", "role", "region",
		"is_active", "hasShipped", "featureFlag", "HTTPStatus", "user-type",
	]
	every name in few {
		lib.name_hint(name, "S") == "low_cardinality"
	}
	many := ["statusCode", "state_id", "customer_id", "typeahead", "ecstatic", "roleArn", "isbn", "hashKey", "level_up_id"]
	every name in many {
		lib.name_hint(name, "S") != "low_cardinality"
	}
}

test_name_hint_reads_a_number_named_like_a_time_as_epoch_values if {
	every name in ["timestamp", "createdAt", "updated_at", "ts", "event_time", "epoch"] {
		lib.name_hint(name, "N") == ""
		lib.name_hint(name, "S") == "time"
	}

	# A name that says a bucket is a bucket whatever its type.
	every name in ["day", "eventDate", "order_date", "hour_bucket", "month", "yyyymmdd", "createdDay"] {
		lib.name_hint(name, "N") == "time"
		lib.name_hint(name, "S") == "time"
	}
	every name in ["customerId", "updater", "dateline_id", "attempts", "", "pk"] {
		lib.name_hint(name, "S") == ""
	}
}

test_name_words_split_snake_kebab_and_camel_case if {
	lib.name_words("orderStatus") == ["order", "status"]
	lib.name_words("HTTPStatusCode") == ["http", "status", "code"]
	lib.name_words("GSI1PK") == ["gsi1", "pk"]
	lib.name_words("created-at.v2") == ["created", "at", "v2"]
	lib.name_words("__") == []
}
