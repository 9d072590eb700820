# An env0 approval policy that reports the dynamokeys findings; put it in the policy directory with the
# dynamokeys bundle.
package env0

import data.dynamokeys.env0 as dynamokeys

deny contains msg if some msg in dynamokeys.deny

warn contains msg if some msg in dynamokeys.warn
