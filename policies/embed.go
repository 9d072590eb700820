// Package policies embeds the dynamokeys Rego bundle: the rules (dynamokeys.rules.*), their library and
// tests, and the entry points. The same directory is a standalone OPA/conftest bundle.
package policies

import "embed"

// FS holds every .rego file of the bundle, tests included; the limits are data.rego, generated from the data
// file.
//
//go:embed *.rego lib/*.rego plan/*.rego
var FS embed.FS
