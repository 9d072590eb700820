package policy

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
	"github.com/dynamokeys/terraform-provider-dynamokeys/policies"
)

// FindingsQuery is the query the engine evaluates: the built-in rules' and custom packages' findings.
const FindingsQuery = "data.dynamokeys.findings"

// CustomProblemsQuery lists the custom findings that are malformed, each naming its rule and package; the
// engine reports them as an error rather than drop them.
const CustomProblemsQuery = "data.dynamokeys.custom_problems"

// CustomPackagePrefix is the package every user policy must live under.
const CustomPackagePrefix = "data.dynamokeys.custom."

// removedBuiltins are taken away from policies on top of every non-deterministic built-in: opa.runtime
// exposes the environment (AWS keys among it) and trace writes to the host's output.
var removedBuiltins = map[string]bool{"opa.runtime": true, "trace": true}

// Capabilities returns the sandbox policies compile with: this OPA version's built-ins minus every
// non-deterministic one (http.send, net.lookup_ip_addr, time.now_ns, rand.intn, uuid.rfc4122, …) and
// opa.runtime, and no network access.
func Capabilities() *ast.Capabilities {
	base := ast.CapabilitiesForThisVersion()
	caps := *base
	caps.Builtins = nil
	for _, b := range base.Builtins {
		if b.Nondeterministic || removedBuiltins[b.Name] {
			continue
		}
		caps.Builtins = append(caps.Builtins, b)
	}
	caps.AllowNet = []string{}
	return &caps
}

// Rule is one entry of the rule catalogue, read from the rules' METADATA annotations.
type Rule struct {
	ID          string
	Name        string
	Severities  []string // "error", "warning" or both for rules whose severity depends on the case
	Title       string
	Description string
	Remediation string // the remedy of a rule with one case; empty when Cases lists them
	Cases       []Case // the cases of a rule whose severity and remedy depend on what it found
	DocsURL     string
	// AWSTable says why the rule cannot fire, or fires only in part, on the AWS provider's aws_dynamodb_table
	// in plan JSON (custom.aws_dynamodb_table); empty when it fires there as on dynamokeys' own resource.
	AWSTable string
	// Blocks counts the METADATA blocks that declare this id; the bundle keeps it at one.
	Blocks int
}

// Case is one case of a rule with several (custom.cases in its METADATA): when it applies, its severity and
// its remedy.
type Case struct {
	Name        string
	When        string
	Severity    string
	Remediation string
}

// Engine evaluates design documents with a compiled, prepared policy bundle. It is safe for concurrent use.
type Engine struct {
	catalogue []Rule
	emptyDirs []int
	// prepared compiles the modules and prepares the findings query, once, when first needed: a provider
	// process that never evaluates a design (every rule disabled, an apply, a destroy) or a TFLint run without
	// a design never pays for the compile, which is most of what an engine costs.
	prepared func() (rego.PreparedEvalQuery, error)
}

// Options add user policies to the built-in bundle.
type Options struct {
	// PolicyDirs are directories of .rego files (packages dynamokeys.custom.*); *_test.rego files are skipped.
	PolicyDirs []string
}

var builtinEngine = sync.OnceValues(func() (*Engine, error) { return NewEngine(context.Background(), Options{}) })

// Builtin returns the engine of the embedded bundle: parsed once per process, compiled on its first
// evaluation.
func Builtin() (*Engine, error) { return builtinEngine() }

func parserOptions() ast.ParserOptions {
	return ast.ParserOptions{RegoVersion: ast.RegoV1, ProcessAnnotation: true, Capabilities: Capabilities()}
}

// BundleModules parses the embedded bundle; withTests includes the *_test.rego files.
func BundleModules(withTests bool) (map[string]*ast.Module, error) {
	modules := map[string]*ast.Module{}
	err := fs.WalkDir(policies.FS, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(name, ".rego") {
			return err
		}
		if strings.HasSuffix(name, "_test.rego") && !withTests {
			return nil
		}
		src, err := fs.ReadFile(policies.FS, name)
		if err != nil {
			return err
		}
		m, err := ast.ParseModuleWithOpts("policies/"+name, string(src), parserOptions())
		if err != nil {
			return err
		}
		modules["policies/"+name] = m
		return nil
	})
	return modules, err
}

// loadCustom parses the user policies of dirs and refuses any outside dynamokeys.custom.*. It also returns
// the indexes of the dirs that hold no policy at all (a wrong path is more likely than an intent).
func loadCustom(dirs []string) (map[string]*ast.Module, []int, error) {
	modules := map[string]*ast.Module{}
	var empty []int
	for i, dir := range dirs {
		before := len(modules)
		err := filepath.WalkDir(dir, func(name string, d fs.DirEntry, err error) error {
			if err != nil {
				return fmt.Errorf("reading policy directory: %w", err)
			}
			if d.IsDir() || !strings.HasSuffix(name, ".rego") || strings.HasSuffix(name, "_test.rego") {
				return nil
			}
			src, err := os.ReadFile(name)
			if err != nil {
				return err
			}
			m, err := ast.ParseModuleWithOpts(name, string(src), parserOptions())
			if err != nil {
				return err
			}
			if pkg := m.Package.Path.String(); !strings.HasPrefix(pkg, CustomPackagePrefix) {
				return fmt.Errorf("%s:%d: package %s is outside dynamokeys.custom: user policies must declare package dynamokeys.custom.<name>",
					name, m.Package.Location.Row, strings.TrimPrefix(pkg, "data."))
			}
			modules[name] = m
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
		if len(modules) == before {
			empty = append(empty, i)
		}
	}
	return modules, empty, nil
}

// NewEngine parses the embedded bundle plus any user policies and reads the rule catalogue. User policies
// are compiled at once in the sandbox, so that their errors, naming the file and line, come back here; the
// embedded bundle alone is compiled on the first evaluation (or Prepare).
func NewEngine(ctx context.Context, opts Options) (*Engine, error) {
	modules, err := BundleModules(false)
	if err != nil {
		return nil, fmt.Errorf("parsing the embedded policies: %w", err)
	}
	custom, emptyDirs, err := loadCustom(opts.PolicyDirs)
	if err != nil {
		return nil, err
	}
	for name, m := range custom {
		modules[name] = m
	}
	// By module name, as the compiler builds its annotation set.
	sorted := make([]*ast.Module, 0, len(modules))
	for _, name := range slices.Sorted(maps.Keys(modules)) {
		sorted = append(sorted, modules[name])
	}
	annotations, errs := ast.BuildAnnotationSet(sorted)
	if len(errs) > 0 {
		return nil, fmt.Errorf("compiling the policies: %w", errs)
	}
	engine := &Engine{catalogue: catalogue(annotations), emptyDirs: emptyDirs}
	engine.prepared = sync.OnceValues(func() (rego.PreparedEvalQuery, error) {
		// Not the caller's context: a compile cut short by one evaluation's deadline would fail every later one.
		return compileEngine(context.WithoutCancel(ctx), findingsModules(modules))
	})
	if len(custom) > 0 {
		if err := engine.Prepare(ctx); err != nil {
			return nil, err
		}
	}
	return engine, nil
}

// findingsModules are the modules the engine's queries (findings, custom problems, the data guard) can reach:
// the packages they name and every package a reached module imports or refers to. The plan adapter and the
// conftest, HCP Terraform, Spacelift and env0 entry points read designs out of plan JSON, which the engine is
// given already made; compiling them too cost a quarter of the compile.
func findingsModules(modules map[string]*ast.Module) map[string]*ast.Module {
	reached := map[string]*ast.Module{}
	seen := map[string]bool{}
	var pending []string
	refer := func(r ast.Ref) {
		path, isData := dataPath(r)
		if isData && !seen[path] {
			seen[path] = true
			pending = append(pending, path)
		}
	}
	for _, query := range []string{FindingsQuery, CustomProblemsQuery, DataProblemQuery} {
		refer(ast.MustParseRef(query))
	}
	for len(pending) > 0 {
		ref := pending[len(pending)-1]
		pending = pending[:len(pending)-1]
		for name, m := range modules {
			pkg := strings.TrimPrefix(m.Package.Path.String(), "data.")
			if reached[name] != nil || !within(ref, pkg) && !within(pkg, ref) {
				continue
			}
			reached[name] = m
			for _, imp := range m.Imports {
				if path, ok := imp.Path.Value.(ast.Ref); ok {
					refer(path)
				}
			}
			for _, rule := range m.Rules {
				ast.WalkRefs(rule, func(r ast.Ref) bool {
					refer(r)
					return false
				})
			}
		}
	}
	return reached
}

// dataPath is the dotted path of the ground prefix of a reference into data; "" for data itself or data[x],
// which reach every package.
func dataPath(r ast.Ref) (string, bool) {
	if !r.HasPrefix(ast.DefaultRootRef) {
		return "", false
	}
	parts := make([]string, 0, len(r)-1)
	for _, t := range r[1:] {
		s, ok := t.Value.(ast.String)
		if !ok {
			break
		}
		parts = append(parts, string(s))
	}
	return strings.Join(parts, "."), true
}

// within tells whether the dotted path a is b or below it; every path is within "".
func within(a, b string) bool {
	return b == "" || a == b || strings.HasPrefix(a, b+".")
}

// Prepare compiles the policies if no evaluation has yet. Evaluations prepare the engine themselves; a
// caller that bounds an evaluation's time prepares it first, so that the bound is the evaluation's alone.
func (e *Engine) Prepare(context.Context) error {
	_, err := e.prepared()
	return err
}

// compileEngine compiles modules in the sandbox and prepares the findings query. It refuses a bundle whose
// rules cannot evaluate: one without its limits (data.rego) or with the limits of another data format.
func compileEngine(ctx context.Context, modules map[string]*ast.Module) (rego.PreparedEvalQuery, error) {
	compiler := ast.NewCompiler().WithCapabilities(Capabilities()).WithEnablePrintStatements(false)
	if compiler.Compile(modules); compiler.Failed() {
		return rego.PreparedEvalQuery{}, fmt.Errorf("compiling the policies: %w", compiler.Errors)
	}
	if err := checkBundleData(ctx, compiler); err != nil {
		return rego.PreparedEvalQuery{}, err
	}
	query, err := rego.New(rego.Query("findings := "+FindingsQuery+"; problems := "+CustomProblemsQuery), rego.Compiler(compiler), rego.Capabilities(Capabilities()),
		rego.StrictBuiltinErrors(false)).PrepareForEval(ctx)
	if err != nil {
		return rego.PreparedEvalQuery{}, fmt.Errorf("preparing the policy query: %w", err)
	}
	return query, nil
}

// EmptyPolicyDirs are the indexes of Options.PolicyDirs that hold no .rego policy.
func (e *Engine) EmptyPolicyDirs() []int { return e.emptyDirs }

// catalogue reads every rule's id, name, severity, title and remedy from its METADATA.
func catalogue(annotations *ast.AnnotationSet) []Rule {
	byID := map[string]*Rule{}
	for _, ref := range annotations.Flatten() {
		a := ref.Annotations
		id, _ := a.Custom["id"].(string)
		if id == "" {
			continue
		}
		r, ok := byID[id]
		if !ok {
			r = &Rule{ID: id, DocsURL: DocsURL(id)}
			byID[id] = r
		}
		r.Blocks++
		r.Name = cmp.Or(r.Name, stringField(a.Custom, "name"))
		r.Title = cmp.Or(r.Title, a.Title)
		r.Description = cmp.Or(r.Description, strings.TrimSpace(a.Description))
		r.Remediation = cmp.Or(r.Remediation, stringField(a.Custom, "remediation"))
		r.AWSTable = cmp.Or(r.AWSTable, stringField(a.Custom, "aws_dynamodb_table"))
		severities := []string{stringField(a.Custom, "severity")}
		cases, _ := a.Custom["cases"].(map[string]any)
		for name, raw := range cases {
			c, _ := raw.(map[string]any)
			r.Cases = append(r.Cases, Case{Name: name, When: stringField(c, "when"), Severity: stringField(c, "severity"), Remediation: stringField(c, "remediation")})
			severities = append(severities, stringField(c, "severity"))
		}
		// Errors first, then by name: the order the rule reference lists the cases in.
		slices.SortFunc(r.Cases, func(x, y Case) int {
			return cmp.Or(cmp.Compare(severityRank(x.Severity), severityRank(y.Severity)), cmp.Compare(x.Name, y.Name))
		})
		for _, sev := range severities {
			if sev != "" && !slices.Contains(r.Severities, sev) {
				r.Severities = append(r.Severities, sev)
				slices.Sort(r.Severities)
			}
		}
	}
	rules := make([]Rule, 0, len(byID))
	for _, r := range byID {
		r.Title, r.Description, r.Remediation = ExpandLimits(r.Title), ExpandLimits(r.Description), ExpandLimits(r.Remediation)
		for i := range r.Cases {
			r.Cases[i].When, r.Cases[i].Remediation = ExpandLimits(r.Cases[i].When), ExpandLimits(r.Cases[i].Remediation)
		}
		rules = append(rules, *r)
	}
	slices.SortFunc(rules, func(a, b Rule) int { return cmp.Compare(a.ID, b.ID) })
	return rules
}

func severityRank(s string) int {
	if s == SeverityError {
		return 0
	}
	return 1
}

func stringField(m map[string]any, key string) string {
	s, _ := m[key].(string)
	return s
}

// DocsURL is where a rule is documented.
func DocsURL(id string) string {
	return policies.Bundle.DocsBase + "#" + strings.ToLower(id)
}

// Catalogue lists the rules the engine knows, sorted by id.
func (e *Engine) Catalogue() []Rule { return e.catalogue }

// HasRule reports whether id names a rule of the catalogue.
func (e *Engine) HasRule(id string) bool {
	_, found := slices.BinarySearchFunc(e.catalogue, id, func(r Rule, id string) int { return cmp.Compare(r.ID, id) })
	return found
}

// ErrTimeout is returned when an evaluation outlives its context deadline.
var ErrTimeout = errors.New("the policy evaluation exceeded eval_timeout")

// ErrMalformedFinding is returned when a custom policy returned a finding without a rule id, a message or a
// severity of error or warning.
var ErrMalformedFinding = errors.New("a custom policy returned a malformed finding")

// ErrPanic is returned when the evaluation panicked: a defect to report, never the user's input.
var ErrPanic = errors.New("the policy evaluation failed unexpectedly")

// Evaluate runs the rules on doc and returns its findings, errors first, then by rule and path. The
// context's deadline bounds the evaluation.
func (e *Engine) Evaluate(ctx context.Context, doc *model.Document) (findings []Finding, err error) {
	defer recoverPanic(&findings, &err)
	input, err := ToValue(doc)
	if err != nil {
		return nil, fmt.Errorf("converting the design document: %w", err)
	}
	return e.EvaluateValue(ctx, input)
}

// EvaluateValue runs the rules on an input document already converted to an OPA value. A panic inside the
// evaluation (a bug in OPA or in a rule) comes back as an error, so that the provider reports it instead of
// crashing the plan.
func (e *Engine) EvaluateValue(ctx context.Context, input ast.Value) (findings []Finding, err error) {
	defer recoverPanic(&findings, &err)
	query, err := e.prepared()
	if err != nil {
		return nil, err
	}
	rs, err := query.Eval(ctx, rego.EvalParsedInput(input))
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("%w (%w)", ErrTimeout, ctx.Err())
		}
		return nil, fmt.Errorf("evaluating the policies: %w", err)
	}
	if len(rs) == 0 {
		return nil, nil
	}
	if problems, _ := rs[0].Bindings["problems"].([]any); len(problems) > 0 {
		texts := make([]string, 0, len(problems))
		for _, p := range problems {
			texts = append(texts, fmt.Sprint(p))
		}
		slices.Sort(texts)
		return nil, fmt.Errorf("%w: %s", ErrMalformedFinding, strings.Join(texts, "; "))
	}
	set, ok := rs[0].Bindings["findings"].([]any)
	if !ok {
		return nil, fmt.Errorf("%s is %T, not a set of findings", FindingsQuery, rs[0].Bindings["findings"])
	}
	findings = make([]Finding, 0, len(set))
	for _, item := range set {
		f, err := decodeFinding(item)
		if err != nil {
			return nil, err
		}
		findings = append(findings, f)
	}
	SortFindings(findings)
	return findings, nil
}

// recoverPanic turns a panic of an evaluation (a bug in OPA, in a rule or in the document's conversion) into
// ErrPanic, so that the provider reports it instead of crashing the plan.
func recoverPanic(findings *[]Finding, err *error) {
	if r := recover(); r != nil {
		*findings, *err = nil, fmt.Errorf("%w: %v", ErrPanic, r)
	}
}

func decodeFinding(item any) (Finding, error) {
	obj, ok := item.(map[string]any)
	if !ok {
		return Finding{}, fmt.Errorf("a policy returned a finding that is not an object: %v", item)
	}
	f := Finding{
		Rule: stringField(obj, "rule"), Name: stringField(obj, "name"), Severity: stringField(obj, "severity"),
		Message: stringField(obj, "message"), Remediation: stringField(obj, "remediation"), DocsURL: stringField(obj, "docs_url"),
	}
	if f.Rule == "" || f.Message == "" {
		return Finding{}, fmt.Errorf("a policy returned a finding without rule or message: %v", item)
	}
	if f.Severity != SeverityError && f.Severity != SeverityWarning {
		return Finding{}, fmt.Errorf("finding of %s has severity %q; use %q or %q", f.Rule, f.Severity, SeverityError, SeverityWarning)
	}
	if f.DocsURL == "" && strings.HasPrefix(f.Rule, "DK") {
		f.DocsURL = DocsURL(f.Rule)
	}
	switch p := obj["path"].(type) {
	case []any:
		for _, step := range p {
			f.Path = append(f.Path, fmt.Sprint(step))
		}
	case string:
		if p != "" {
			f.Path = strings.Split(p, ".")
		}
	}
	return f, nil
}

// SortFindings orders findings: errors first, then by rule id, then by path.
func SortFindings(findings []Finding) {
	slices.SortFunc(findings, func(a, b Finding) int {
		if a.Severity != b.Severity {
			if a.Severity == SeverityError {
				return -1
			}
			if b.Severity == SeverityError {
				return 1
			}
		}
		return cmp.Or(cmp.Compare(a.Rule, b.Rule), cmp.Compare(a.Path.String(), b.Path.String()), cmp.Compare(a.Message, b.Message))
	})
}
