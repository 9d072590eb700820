package keydesign

import "github.com/dynamokeys/terraform-provider-dynamokeys/internal/observed"

// Measured traffic: internal/observed reads what CloudWatch and Contributor Insights saw of a table or one
// of its GSIs into an observed.Observation; the measured stage (internal/keydesign/measured) compares it with the design.
// contributing/capacity-model.md ("Measured traffic") describes the figures.

// Observation is the measured traffic of a table or of one GSI (internal/observed).
type Observation = observed.Observation
