// Command regofmt formats Rego files with the OPA v1 formatter of the version in go.mod, without building
// the OPA CLI. By default it rewrites files in place (`opa fmt -w`); with -check it only lists the files
// that are not formatted and exits 1 when there is one (`opa fmt --list --fail`).
//
//	go run ./internal/cmd/regofmt policies          # make fmt
//	go run ./internal/cmd/regofmt -check policies   # make lint
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/format"
)

func main() {
	check := flag.Bool("check", false, "list unformatted files and exit 1 if there is one; change nothing")
	flag.Parse()
	unformatted, failed := 0, false
	for _, root := range flag.Args() {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".rego") {
				return err
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			out, err := format.SourceWithOpts(path, src, format.Opts{RegoVersion: ast.RegoV1})
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				failed = true
				return nil
			}
			if bytes.Equal(out, src) {
				return nil
			}
			unformatted++
			fmt.Println(path)
			if *check {
				return nil
			}
			return os.WriteFile(path, out, 0o644)
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			failed = true
		}
	}
	if *check && unformatted > 0 {
		fmt.Fprintf(os.Stderr, "regofmt: %d Rego file(s) not formatted: run make fmt\n", unformatted)
		failed = true
	}
	if failed {
		os.Exit(1)
	}
}
