# A Spacelift plan policy that reports the dynamokeys findings; attach it with the dynamokeys bundle.
package spacelift

import data.dynamokeys.spacelift as dynamokeys

deny contains msg if some msg in dynamokeys.deny

warn contains msg if some msg in dynamokeys.warn
