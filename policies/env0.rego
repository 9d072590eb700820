# METADATA
# title: env0 approval policy entry point
# description: |
#   For env0 approval policies, whose input carries the plan under input.plan (beside deploymentRequest,
#   template, costEstimation, deployerUser and approvers): deny holds the messages of error findings, warn
#   those of warnings. An env0 policy is in package env0: a module of that package next to the bundle
#   imports this one (the policy plugin guide shows it).
package dynamokeys.env0

import data.dynamokeys.conftest

# METADATA
# entrypoint: true
# description: Messages of error findings for an env0 approval policy.
deny contains r.msg if {
	some r in conftest.deny with input as input.plan
}

# METADATA
# entrypoint: true
# description: Messages of warnings for an env0 approval policy.
warn contains r.msg if {
	some r in conftest.warn with input as input.plan
}
