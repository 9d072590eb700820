# METADATA
# title: HCP Terraform policy-set entry point
# description: |
#   For HCP Terraform OPA policy sets, whose input carries the plan under input.plan: deny holds the
#   messages of error findings, warn those of warnings (use an advisory enforcement level for warn).
package dynamokeys.hcp

import data.dynamokeys.conftest

deny contains r.msg if {
	some r in conftest.deny with input as input.plan
}

warn contains r.msg if {
	some r in conftest.warn with input as input.plan
}
