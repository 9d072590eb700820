# Terraform plan adapter: the policy settings each document is checked under.
# The provider's policy.enforce (or the block's enforce) and policy.disabled_rules travel in the design
# document of dynamokeys_sharded_table and dynamokeys_keydesign (its policy field), so the bundle applies
# them as the provider did. The AWS provider's resources have no provider settings: for them, and for
# documents of a provider that did not record its settings, the bundle's own settings apply, from
# data.dynamokeys.settings (a data file {"dynamokeys": {"settings": {...}}} or a Rego module of package
# dynamokeys.settings with enforce and disabled_rules), by default enforce true and nothing disabled.
package dynamokeys.plan

# settings returns {"enforce": bool, "disabled": set of rule ids} for a document's policy field.
settings(policy) := settings_of(policy) if is_object(policy)

else := bundle_settings

bundle_settings := settings_of(configured_settings)

default configured_settings := {}

configured_settings := data.dynamokeys.settings if is_object(data.dynamokeys.settings)

settings_of(s) := {
	"enforce": object.get(s, "enforce", true) != false,
	"disabled": ({id | some id in array_or_empty(object.get(s, "disabled_rules", []))} | {id | some id in set_or_empty(object.get(s, "disabled_rules", []))}),
}

set_or_empty(x) := x if is_set(x)

else := set()
