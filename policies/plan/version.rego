# Terraform plan adapter: the provider and bundle versions. Every design document records the
# provider_version that computed it; the bundle's own version is data.dynamokeys.version ("dev" in the
# repository, the release version in a release's archive).
package dynamokeys.plan

# newer_provider is the newest provider version in the plan when it is newer than this bundle: that
# provider may compute facts or fields this bundle's rules do not know. Versions that are not semantic
# versions ("dev", a local build) compare with nothing.
newer_provider := highest(newer_versions) if count(newer_versions) > 0

newer_versions contains v if {
	bundle := semantic_version(data.dynamokeys.version)
	some entry in designs
	v := semantic_version(entry.doc.provider_version)
	semver.compare(v, bundle) > 0
}

# highest picks the highest of a set of semantic versions.
highest(versions) := v if {
	some v in versions
	every w in versions {
		semver.compare(v, w) >= 0
	}
}

semantic_version(v) := trimmed if {
	is_string(v)
	trimmed := trim_prefix(v, "v")
	semver.is_valid(trimmed)
}
