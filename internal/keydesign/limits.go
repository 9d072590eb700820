// Package keydesign holds the pure logic of dynamokeys: key templates, segments, capacity-unit math,
// shard counts and routing, and the Design document the policies evaluate. It imports nothing from
// Terraform, AWS or OPA.
package keydesign
