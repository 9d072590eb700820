package policy

import (
	"context"
	"errors"
	"fmt"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
)

// DataProblemQuery is the bundle's own check that its limits are loaded and of the data format its rules
// read; defined (a message) when they are not. Every entry point of the bundle reports it instead of any
// finding.
const DataProblemQuery = "data.dynamokeys.lib.data_problem"

// ErrNoBundleData is returned by an engine whose rules have no usable limits: they would compare the design
// with nothing and pass it.
var ErrNoBundleData = errors.New("the policy rules cannot be evaluated without their limits")

// checkBundleData asks the compiled bundle whether its limits are there; a bundle without them is refused
// rather than evaluated, as the plan entry points refuse to pass a plan.
func checkBundleData(ctx context.Context, compiler *ast.Compiler) error {
	rs, err := rego.New(rego.Query(DataProblemQuery), rego.Compiler(compiler), rego.Capabilities(Capabilities())).Eval(ctx)
	if err != nil {
		return fmt.Errorf("checking the policy limits: %w", err)
	}
	if len(rs) == 0 || len(rs[0].Expressions) == 0 {
		return nil
	}
	return fmt.Errorf("%w: %v", ErrNoBundleData, rs[0].Expressions[0].Value)
}
