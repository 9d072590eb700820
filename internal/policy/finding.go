// Package policy evaluates design documents against the Rego rules in policies/ with OPA v1 and returns
// typed findings. It knows nothing of Terraform or AWS.
package policy

import (
	"context"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// Severities of findings.
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
)

// Finding is one rule's verdict on a design, pointing at the attribute it concerns.
type Finding struct {
	Rule        string     `json:"rule"`
	Name        string     `json:"name"`
	Severity    string     `json:"severity"`
	Message     string     `json:"message"`
	Path        model.Path `json:"path"`
	Remediation string     `json:"remediation"`
	DocsURL     string     `json:"docs_url"`
}

// Evaluator turns a design document into findings. The provider calls it from the data source and the
// resource; a nil Evaluator means no rules.
type Evaluator interface {
	// Prepare compiles the rules if no evaluation has yet. A caller that bounds an evaluation's time calls it
	// first, so that the bound is the evaluation's alone.
	Prepare(ctx context.Context) error
	Evaluate(ctx context.Context, doc *model.Document) ([]Finding, error)
}
