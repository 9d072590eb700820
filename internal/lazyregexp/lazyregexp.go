// Package lazyregexp is a regular expression compiled when first used. Every package-level regexp of a
// Go binary compiles at start-up, in every provider process Terraform starts, whether or not the process
// matches anything (most only serve a schema or one function call).
package lazyregexp

import (
	"regexp"
	"sync"
)

// Regexp is a regexp.Regexp compiled on first use; the methods are those of regexp.Regexp.
type Regexp struct {
	expr string
	rx   func() *regexp.Regexp
}

// New returns expr, compiled (with regexp.MustCompile) on first use. A package-level New of an invalid
// expression panics on first use rather than at start-up, so each is used by a test.
func New(expr string) *Regexp {
	return &Regexp{expr: expr, rx: sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })}
}

// Regexp is the compiled expression, for an API that takes one.
func (r *Regexp) Regexp() *regexp.Regexp { return r.rx() }

// String is the source text of the expression.
func (r *Regexp) String() string { return r.expr }

func (r *Regexp) MatchString(s string) bool                { return r.rx().MatchString(s) }
func (r *Regexp) FindString(s string) string               { return r.rx().FindString(s) }
func (r *Regexp) FindStringSubmatch(s string) []string     { return r.rx().FindStringSubmatch(s) }
func (r *Regexp) ReplaceAllString(src, repl string) string { return r.rx().ReplaceAllString(src, repl) }

func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.rx().FindAllStringSubmatch(s, n)
}

func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return r.rx().FindAllStringSubmatchIndex(s, n)
}

func (r *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return r.rx().ReplaceAllStringFunc(src, repl)
}
