# METADATA
# title: Spacelift plan policy entry point
# description: |
#   For Spacelift plan policies, whose input carries the plan under input.terraform (and Spacelift's own
#   metadata under input.spacelift): deny holds the messages of error findings, warn those of warnings. A
#   Spacelift policy is in package spacelift: its body imports this package (the policy plugin guide shows
#   the three lines). Under Spacelift's default sanitization every string of the plan is a hash: the
#   resources it makes unreadable get a "not checked" warning rather than findings about hashes.
package dynamokeys.spacelift

import data.dynamokeys.conftest

# METADATA
# entrypoint: true
# description: Messages of error findings for a Spacelift plan policy.
deny contains r.msg if {
	some r in conftest.deny with input as input.terraform
}

# METADATA
# entrypoint: true
# description: Messages of warnings for a Spacelift plan policy.
warn contains r.msg if {
	some r in conftest.warn with input as input.terraform
}
