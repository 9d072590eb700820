// Command regofmt formats Rego files in place with the OPA v1 formatter of the version in go.mod (the
// same check `opa fmt --fail` makes in the tests), without building the OPA CLI.
//
//	go run ./internal/cmd/regofmt policies
package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/format"
)

func main() {
	changed, failed := 0, false
	for _, root := range os.Args[1:] {
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
			if !bytes.Equal(out, src) {
				changed++
				fmt.Println(path)
				return os.WriteFile(path, out, 0o644)
			}
			return nil
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			failed = true
		}
	}
	if failed {
		os.Exit(1)
	}
}
