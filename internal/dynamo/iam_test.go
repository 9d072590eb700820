package dynamo

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/testutil"
)

// iamGuide holds the IAM policies of the docs, each a JSON block after an "<!-- iam: NAME -->" marker.
const iamGuide = "templates/guides/iam-permissions.md.tmpl"

// calledActions lists the IAM actions this package's non-test code calls: every SDK operation takes a
// *<service>.<Operation>Input, so each composite literal of such a type in a file that imports
// github.com/aws/aws-sdk-go-v2/service/<service> is one action, "<service>:<Operation>".
func calledActions(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var actions []string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		services := map[string]string{} // local package name -> IAM service prefix
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if service, ok := strings.CutPrefix(p, "github.com/aws/aws-sdk-go-v2/service/"); ok && !strings.Contains(service, "/") {
				local := service
				if imp.Name != nil {
					local = imp.Name.Name
				}
				services[local] = service
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			sel, ok := lit.Type.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			pkg, ok := sel.X.(*ast.Ident)
			op, isInput := strings.CutSuffix(sel.Sel.Name, "Input")
			if service := services[pkgName(pkg, ok)]; service != "" && isInput && op != "" {
				actions = append(actions, service+":"+op)
			}
			return true
		})
	}
	slices.Sort(actions)
	return slices.Compact(actions)
}

func pkgName(id *ast.Ident, ok bool) string {
	if !ok {
		return ""
	}
	return id.Name
}

// guidePolicies reads the actions of each marked policy of the IAM guide.
func guidePolicies(t *testing.T) map[string][]string {
	t.Helper()
	root, err := testutil.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, iamGuide))
	if err != nil {
		t.Fatal(err)
	}
	policies := map[string][]string{}
	for _, m := range regexp.MustCompile("(?s)<!-- iam: ([a-z-]+) -->\n```json\n(.*?)```").FindAllStringSubmatch(string(b), -1) {
		var doc struct {
			Statement []struct {
				Action []string
			}
		}
		if err := json.Unmarshal([]byte(m[2]), &doc); err != nil {
			t.Fatalf("%s: policy %s is not valid JSON: %v", iamGuide, m[1], err)
		}
		for _, s := range doc.Statement {
			policies[m[1]] = append(policies[m[1]], s.Action...)
		}
	}
	return policies
}

// readOnly says whether an action only reads (what a plan, which refreshes, calls).
func readOnly(action string) bool {
	_, op, _ := strings.Cut(action, ":")
	return strings.HasPrefix(op, "Describe") || strings.HasPrefix(op, "List") || strings.HasPrefix(op, "Get")
}

// listOnly are the actions only the list resource calls.
var listOnly = []string{"dynamodb:ListTables"}

// TestIAMGuideMatchesCalls keeps the IAM guide exact: the apply policy lists every DynamoDB action the
// package calls and no other, the plan-only policy every read-only one and no other (the list resource's own excepted), the audit policy
// every read-only one, and every action the
// package calls (CloudWatch's too) is in one of the guide's policies. Actions of other services (KMS, on the
// caller's behalf) are outside the check.
func TestIAMGuideMatchesCalls(t *testing.T) {
	called := calledActions(t)
	if !slices.Contains(called, "dynamodb:DescribeTable") || !slices.Contains(called, "dynamodb:CreateTable") {
		t.Fatalf("the scan of the package's calls misses DescribeTable or CreateTable: %v", called)
	}
	policies := guidePolicies(t)
	only := func(actions []string, keep func(string) bool) []string {
		var out []string
		for _, a := range actions {
			if keep(a) {
				out = append(out, a)
			}
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	isDynamoDB := func(a string) bool { return strings.HasPrefix(a, "dynamodb:") }
	calledDynamoDB := only(called, isDynamoDB)
	// ListTables serves only the list resource (terraform query), whose role the audit policy is: a plan or
	// an apply never lists the account.
	managed := only(calledDynamoDB, func(a string) bool { return !slices.Contains(listOnly, a) })
	if got := only(policies["apply"], isDynamoDB); !slices.Equal(got, managed) {
		t.Errorf("the apply policy lists %v; the provider calls %v", got, managed)
	}
	wantPlan := only(managed, readOnly)
	if got := only(policies["plan"], isDynamoDB); !slices.Equal(got, wantPlan) {
		t.Errorf("the plan-only policy lists %v; a refresh calls %v", got, wantPlan)
	}
	if got, want := only(policies["audit"], isDynamoDB), only(calledDynamoDB, readOnly); !slices.Equal(got, want) {
		t.Errorf("the audit policy lists %v; a list of the account's tables calls %v", got, want)
	}
	var listed []string
	for _, actions := range policies {
		listed = append(listed, actions...)
	}
	for _, a := range called {
		if !slices.Contains(listed, a) {
			t.Errorf("the provider calls %s, which no policy of the IAM guide lists", a)
		}
	}
}
