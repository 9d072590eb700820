package policy

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
)

// Conftest's queries on the bundle: with --namespace dynamokeys.conftest it asks for deny, then for warn,
// each in an evaluation of its own.
const (
	PlanDenyQuery = "data.dynamokeys.conftest.deny"
	PlanWarnQuery = "data.dynamokeys.conftest.warn"
	// PlanDocumentsQuery is the plan adapter's design documents by address, and the standalone GSIs and
	// vector indexes whose findings belong to the index resource's address rather than the table's.
	PlanDocumentsQuery = "documents := data.dynamokeys.plan.documents; owners := data.dynamokeys.plan.standalone_index_addresses"
)

// PlanResult is one result of the conftest entry points: the message, and for a finding its rule id and
// the Terraform address it concerns.
type PlanResult struct {
	Msg     string `json:"msg"`
	Rule    string `json:"rule"`
	Address string `json:"address"`
	// Severity is the finding's own: an error is a warn result when the design's enforce is false.
	Severity string `json:"severity"`
}

type planQueries struct{ deny, warn, documents rego.PreparedEvalQuery }

var preparedPlanQueries = sync.OnceValues(func() (*planQueries, error) {
	modules, err := BundleModules(false)
	if err != nil {
		return nil, err
	}
	compiler := ast.NewCompiler().WithCapabilities(Capabilities())
	if compiler.Compile(modules); compiler.Failed() {
		return nil, compiler.Errors
	}
	var q planQueries
	for query, into := range map[string]*rego.PreparedEvalQuery{PlanDenyQuery: &q.deny, PlanWarnQuery: &q.warn, PlanDocumentsQuery: &q.documents} {
		*into, err = rego.New(rego.Query(query), rego.Compiler(compiler), rego.StrictBuiltinErrors(true)).
			PrepareForEval(context.Background())
		if err != nil {
			return nil, err
		}
	}
	return &q, nil
})

// EvaluatePlan runs the bundle's conftest entry points on `terraform show -json` output, through OPA's Go
// packages with the embedded rules and data file: what `conftest test --policy policies
// --namespace dynamokeys.conftest` reports, without the conftest binary.
func EvaluatePlan(ctx context.Context, planJSON []byte) (deny, warn []PlanResult, err error) {
	q, err := preparedPlanQueries()
	if err != nil {
		return nil, nil, fmt.Errorf("preparing the bundle: %w", err)
	}
	var input any
	if err := json.Unmarshal(planJSON, &input); err != nil {
		return nil, nil, fmt.Errorf("reading the plan: %w", err)
	}
	results := func(query rego.PreparedEvalQuery) ([]PlanResult, error) {
		rs, err := query.Eval(ctx, rego.EvalInput(input))
		if err != nil || len(rs) == 0 {
			return nil, err
		}
		raw, err := json.Marshal(rs[0].Expressions[0].Value)
		if err != nil {
			return nil, err
		}
		var out []PlanResult
		return out, json.Unmarshal(raw, &out)
	}
	if deny, err = results(q.deny); err != nil {
		return nil, nil, err
	}
	if warn, err = results(q.warn); err != nil {
		return nil, nil, err
	}
	return deny, warn, nil
}

// IndexOwners maps a table's address to the standalone index resources joined to it: by the document path's
// first part (global_secondary_indexes, vector_indexes), then by index name, the resource's address.
type IndexOwners map[string]map[string]map[string]string

// Owner is the address of the standalone index resource a finding's path at the table's address lies in, or "".
func (o IndexOwners) Owner(table string, path []string) string {
	if len(path) < 2 {
		return ""
	}
	return o[table][path[0]][path[1]]
}

// PlanDocuments runs the bundle's plan adapter (policies/plan) on a plan-JSON-shaped input and returns the
// design document of each address it maps, and for each table address the standalone GSIs and vector indexes
// joined to it. The documents are what conftest evaluates; EvaluateValue evaluates one.
func PlanDocuments(ctx context.Context, plan any) (documents map[string]ast.Value, owners IndexOwners, err error) {
	q, err := preparedPlanQueries()
	if err != nil {
		return nil, nil, fmt.Errorf("preparing the bundle: %w", err)
	}
	rs, err := q.documents.Eval(ctx, rego.EvalInput(plan))
	if err != nil || len(rs) == 0 {
		return nil, nil, err
	}
	raw, _ := rs[0].Bindings["documents"].(map[string]any)
	documents = make(map[string]ast.Value, len(raw))
	for address, doc := range raw {
		v, err := ast.InterfaceToValue(doc)
		if err != nil {
			return nil, nil, err
		}
		documents[address] = v
	}
	tables, _ := rs[0].Bindings["owners"].(map[string]any)
	owners = make(IndexOwners, len(tables))
	for table, kinds := range tables {
		byKind, _ := kinds.(map[string]any)
		owners[table] = make(map[string]map[string]string, len(byKind))
		for kind, names := range byKind {
			byName, _ := names.(map[string]any)
			owners[table][kind] = make(map[string]string, len(byName))
			for name, address := range byName {
				owners[table][kind][name] = fmt.Sprint(address)
			}
		}
	}
	return documents, owners, nil
}

// EvaluateAWSTable evaluates one table known only by what DynamoDB says of it, given in the attributes of the
// AWS provider's aws_dynamodb_table as a plan's change.after holds them (hash_key, attribute, the index
// blocks, billing and throughput). It goes through the bundle's plan adapter, so its findings are those
// conftest reports on a plan of that aws_dynamodb_table: key names and types, index counts and keys, the name
// heuristics and the settings rules; a rule that needs templates or traffic stays silent.
func (e *Engine) EvaluateAWSTable(ctx context.Context, address string, after map[string]any) ([]Finding, error) {
	// Through JSON, so that the adapter reads numbers and lists as it reads them from a plan file.
	raw, err := json.Marshal(map[string]any{
		"format_version": "1.2",
		"resource_changes": []any{map[string]any{
			"address": address, "mode": "managed", "type": "aws_dynamodb_table", "name": "audited",
			"change": map[string]any{"actions": []any{"update"}, "after": after, "after_unknown": map[string]any{}},
		}},
	})
	if err != nil {
		return nil, fmt.Errorf("encoding the table: %w", err)
	}
	var plan any
	if err := json.Unmarshal(raw, &plan); err != nil {
		return nil, fmt.Errorf("encoding the table: %w", err)
	}
	documents, _, err := PlanDocuments(ctx, plan)
	if err != nil {
		return nil, fmt.Errorf("mapping the table: %w", err)
	}
	doc, ok := documents[address]
	if !ok {
		return nil, fmt.Errorf("the plan adapter mapped no document for table %s (it needs a hash_key)", address)
	}
	return e.EvaluateValue(ctx, doc)
}
