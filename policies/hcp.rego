# METADATA
# title: HCP Terraform policy-set entry point
# description: |
#   For HCP Terraform OPA policy sets, whose input carries the plan under input.plan: deny holds the
#   messages of error findings, warn those of warnings (use an advisory enforcement level for warn).
package dynamokeys.hcp

import data.dynamokeys.conftest

# METADATA
# entrypoint: true
# description: Messages of error findings for an HCP Terraform policy set.
deny contains r.msg if {
	some r in conftest.deny with input as input.plan
}

# METADATA
# entrypoint: true
# description: Messages of warnings for an HCP Terraform policy set (advisory).
warn contains r.msg if {
	some r in conftest.warn with input as input.plan
}
