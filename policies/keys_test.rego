package dynamokeys.rules.keys_test

import data.dynamokeys.fixtures
import data.dynamokeys.rules.keys

test_clean_design_has_no_key_findings if {
	count(keys.findings) == 0 with input as fixtures.base
}

test_bool_key_type_is_error if {
	doc := fixtures.doc({"derived": {"key_attributes": [{"path": ["partition_key"], "name": "pk", "name_bytes": 2, "type": "BOOL"}]}})
	some f in keys.findings with input as doc
	f.rule == "DK101"
	f.severity == "error"
	f.path == ["partition_key", "type"]
	contains(f.message, `"BOOL"`)
}

test_gsi_key_type_names_the_attribute_path if {
	attr := {"path": ["global_secondary_indexes", "by_x", "partition_key", "1"], "name": "d", "name_bytes": 1, "type": "DATE"}
	doc := fixtures.doc({"derived": {"key_attributes": [attr]}})
	some f in keys.findings with input as doc
	f.rule == "DK101"
	f.path == ["global_secondary_indexes", "by_x", "partition_key", "1", "type"]
}

test_number_and_binary_key_types_pass if {
	doc := fixtures.doc({"derived": {"key_attributes": [
		{"path": ["partition_key"], "name": "pk", "name_bytes": 2, "type": "N"},
		{"path": ["sort_key"], "name": "sk", "name_bytes": 2, "type": "B"},
	]}})
	not "DK101" in fixtures.ids(keys.findings) with input as doc
}

test_partition_key_2048_bytes_passes if {
	not "DK102" in fixtures.ids(keys.findings) with input as fixtures.doc({"derived": {"partition_key": {"max_bytes": 2048}}})
}

test_partition_key_2049_bytes_is_error if {
	some f in keys.findings with input as fixtures.doc({"derived": {"partition_key": {"max_bytes": 2049}}})
	f.rule == "DK102"
	contains(f.message, "2,049 bytes")
}

test_partition_key_that_can_be_empty_is_error if {
	"DK102" in fixtures.ids(keys.findings) with input as fixtures.doc({"derived": {"partition_key": {"min_bytes": 0}}})
}

test_partition_key_length_silent_when_template_unknown if {
	doc := fixtures.doc({"derived": {"partition_key": {"max_bytes": 5000}}, "unknown": ["partition_key.template"]})
	not "DK102" in fixtures.ids(keys.findings) with input as doc
}

test_sort_key_1024_bytes_passes if {
	not "DK103" in fixtures.ids(keys.findings) with input as fixtures.doc({"derived": {"sort_key": {"max_bytes": 1024}}})
}

test_sort_key_1025_bytes_is_error if {
	"DK103" in fixtures.ids(keys.findings) with input as fixtures.doc({"derived": {"sort_key": {"max_bytes": 1025}}})
}

test_sort_key_that_can_be_empty_is_error if {
	"DK103" in fixtures.ids(keys.findings) with input as fixtures.doc({"derived": {"sort_key": {"min_bytes": 0}}})
}

test_undeclared_placeholder_is_error if {
	doc := fixtures.doc({"derived": {"undeclared_placeholders": [{"key": "sort_key", "placeholder": "ts"}]}})
	some f in keys.findings with input as doc
	f.rule == "DK104"
	f.path == ["sort_key", "template"]
	contains(f.message, "{ts}")
}

number_pk(template, literals, segments) := fixtures.doc({
	"table": {"partition_key": {"name": "pk", "type": "N", "template": template}},
	"derived": {"partition_key": {"literals": literals, "segments": segments, "max_bytes": 20}},
})

test_number_key_with_text_prefix_is_error if {
	doc := number_pk("CUSTOMER#{customer_id}", ["CUSTOMER#"], [])
	some f in keys.findings with input as doc
	f.rule == "DK105"
	contains(f.message, `"CUSTOMER#"`)
}

test_number_key_with_digits_passes if {
	doc := number_pk("1{customer_id}", ["1"], [{"name": "customer_id", "kind": "id"}])
	not "DK105" in fixtures.ids(keys.findings) with input as doc
}

test_number_key_with_day_bucket_is_error if {
	doc := object.union(number_pk("{day}", [], [{"name": "day", "kind": "time"}]), {"segments": {"day": {"name": "day", "kind": "time", "granularity": "day"}}})
	"DK105" in fixtures.ids(keys.findings) with input as doc
}

test_number_key_with_epoch_millis_passes if {
	doc := object.union(number_pk("{ts}", [], [{"name": "ts", "kind": "time"}]), {"segments": {"ts": {"name": "ts", "kind": "time", "granularity": "millisecond"}}})
	not "DK105" in fixtures.ids(keys.findings) with input as doc
}

test_number_key_with_numeric_enum_passes if {
	doc := object.union(number_pk("{region}", [], [{"name": "region", "kind": "enum"}]), {"segments": {"region": {"name": "region", "kind": "enum", "values": ["1", "2"]}}})
	not "DK105" in fixtures.ids(keys.findings) with input as doc
}

test_number_key_with_text_enum_is_error if {
	doc := object.union(number_pk("{status}", [], [{"name": "status", "kind": "enum"}]), {"segments": {"status": {"name": "status", "kind": "enum", "values": ["open"]}}})
	"DK105" in fixtures.ids(keys.findings) with input as doc
}

test_number_key_over_38_digits_is_error if {
	doc := fixtures.doc({
		"table": {"partition_key": {"name": "pk", "type": "N", "template": "{n}"}},
		"derived": {"partition_key": {"literals": [], "segments": [], "max_bytes": 39}},
	})
	"DK105" in fixtures.ids(keys.findings) with input as doc
}

test_mixed_delimiters_warn if {
	some f in keys.findings with input as fixtures.doc({"derived": {"conventions": {"delimiters": ["#", "|"]}}})
	f.rule == "DK106"
	f.severity == "warning"
}

test_mixed_letter_cases_warn if {
	"DK106" in fixtures.ids(keys.findings) with input as fixtures.doc({"derived": {"conventions": {"letter_cases": ["lower", "upper"]}}})
}

test_invalid_table_name_is_error if {
	some f in keys.findings with input as fixtures.doc({"table": {"name": "my table"}})
	f.rule == "DK107"
	f.path == ["name"]
}

test_two_character_table_name_is_error if {
	"DK107" in fixtures.ids(keys.findings) with input as fixtures.doc({"table": {"name": "ab"}})
}

test_three_character_table_name_passes if {
	not "DK107" in fixtures.ids(keys.findings) with input as fixtures.doc({"table": {"name": "a.b"}})
}

test_data_source_without_table_name_passes if {
	not "DK107" in fixtures.ids(keys.findings) with input as fixtures.doc({"table": {"name": ""}})
}

test_invalid_index_name_is_error if {
	some f in keys.findings with input as fixtures.doc({"table": {"gsis": [fixtures.gsi("by customer")]}})
	f.rule == "DK107"
	f.path == ["global_secondary_indexes", "by customer"]
}

test_attribute_name_256_bytes_is_error if {
	doc := fixtures.doc({"derived": {"key_attributes": [{"path": ["partition_key"], "name": "x", "name_bytes": 256, "type": "S"}]}})
	"DK107" in fixtures.ids(keys.findings) with input as doc
}

test_empty_attribute_name_is_error if {
	doc := fixtures.doc({"derived": {"key_attributes": [{"path": ["sort_key"], "name": "", "name_bytes": 0, "type": "S"}]}})
	"DK107" in fixtures.ids(keys.findings) with input as doc
}

test_gsi_without_partition_key_is_error if {
	g := object.union(fixtures.gsi("by_x"), {"partition_key": []})
	some f in keys.findings with input as fixtures.doc({"table": {"gsis": [g]}})
	f.rule == "DK108"
	f.path == ["global_secondary_indexes", "by_x", "partition_key"]
}

test_gsi_with_five_partition_attributes_is_error if {
	attrs := [{"name": sprintf("a%d", [i]), "type": "S", "cardinality": null} | some i in numbers.range(1, 5)]
	g := object.union(fixtures.gsi("by_x"), {"partition_key": attrs})
	"DK108" in fixtures.ids(keys.findings) with input as fixtures.doc({"table": {"gsis": [g]}})
}

test_gsi_with_four_and_four_attributes_passes if {
	attrs := [{"name": sprintf("a%d", [i]), "type": "S", "cardinality": null} | some i in numbers.range(1, 4)]
	g := object.union(fixtures.gsi("by_x"), {"partition_key": attrs, "sort_key": attrs})
	not "DK108" in fixtures.ids(keys.findings) with input as fixtures.doc({"table": {"gsis": [g]}})
}

test_gsi_with_five_sort_attributes_is_error if {
	attrs := [{"name": sprintf("a%d", [i]), "type": "S", "cardinality": null} | some i in numbers.range(1, 5)]
	g := object.union(fixtures.gsi("by_x"), {"sort_key": attrs})
	"DK108" in fixtures.ids(keys.findings) with input as fixtures.doc({"table": {"gsis": [g]}})
}

test_name_pattern_agrees_with_name_limits if {
	keys.name_pattern == sprintf(`^[A-Za-z0-9_.-]{%d,%d}$`, [data.dynamokeys.limits.min_name_length, data.dynamokeys.limits.max_name_length])
}
