package main_test

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The SARIF 2.1.0 schema and a JSON Schema validator come from Go modules
// through the module proxy at test time: github.com/owenrumney/go-sarif/v3
// embeds the OASIS schema (errata 01) as a Go constant, and
// github.com/xeipuuv/gojsonschema validates against it. Neither becomes a
// dependency of queuecheck.
const (
	sarifModule  = "github.com/owenrumney/go-sarif/v3"
	sarifVersion = "v3.3.1"
	schemaFile   = "pkg/report/v210/sarif/schema.go"
)

const validatorMain = `package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/xeipuuv/gojsonschema"
)

func main() {
	abs := func(p string) string { a, _ := filepath.Abs(p); return "file://" + filepath.ToSlash(a) }
	res, err := gojsonschema.Validate(gojsonschema.NewReferenceLoader(abs(os.Args[1])), gojsonschema.NewReferenceLoader(abs(os.Args[2])))
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(2)
	}
	for _, e := range res.Errors() {
		fmt.Println(e)
	}
	if !res.Valid() {
		os.Exit(1)
	}
}
`

func TestSARIFValidatesAgainstSchema(t *testing.T) {
	if testing.Short() {
		t.Skip("fetches the SARIF schema and a validator through the Go module proxy")
	}
	work := t.TempDir()
	files := map[string]string{
		"go.mod":  "module sarifvalidate\n\ngo 1.26\n\nrequire (\n\tgithub.com/xeipuuv/gojsonschema v1.2.0\n\t" + sarifModule + " " + sarifVersion + "\n)\n",
		"main.go": validatorMain,
		"deps.go": "package main\n\nimport _ \"" + sarifModule + "/pkg/report/v210/sarif\"\n",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(work, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	goCmd := func(args ...string) []byte {
		cmd := exec.Command("go", args...)
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
		out, err := cmd.Output()
		if err != nil {
			stderr := ""
			if ee, ok := err.(*exec.ExitError); ok {
				stderr = string(ee.Stderr)
			}
			t.Fatalf("go %v: %v\n%s%s", args, err, out, stderr)
		}
		return out
	}
	goCmd("mod", "tidy")
	var mod struct{ Dir string }
	if err := json.Unmarshal(goCmd("list", "-m", "-json", sarifModule), &mod); err != nil {
		t.Fatal(err)
	}
	schema := extractSchema(t, filepath.Join(mod.Dir, schemaFile))
	schemaPath := filepath.Join(work, "sarif-schema-2.1.0.json")
	if err := os.WriteFile(schemaPath, []byte(schema), 0o644); err != nil {
		t.Fatal(err)
	}
	goCmd("build", "-o", "validate", ".")

	// A run with findings, related positions and fixes, and a clean run.
	for _, pkgs := range [][]string{{"./..."}, {"./clean"}} {
		r := queuecheck(t, module(t, "chans"), append([]string{"-format=sarif"}, pkgs...)...)
		logPath := filepath.Join(work, "run.sarif")
		if err := os.WriteFile(logPath, []byte(r.stdout), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(filepath.Join(work, "validate"), schemaPath, logPath)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%v: SARIF output does not validate: %v\n%s\n%s", pkgs, err, out, r.stdout)
		}
	}
}

// extractSchema returns the value of the string constant "schema" in file.
func extractSchema(t *testing.T, file string) string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		gen, ok := d.(*ast.GenDecl)
		if !ok || gen.Tok != token.CONST {
			continue
		}
		for _, s := range gen.Specs {
			vs := s.(*ast.ValueSpec)
			if len(vs.Names) == 1 && vs.Names[0].Name == "schema" && len(vs.Values) == 1 {
				if lit, ok := vs.Values[0].(*ast.BasicLit); ok {
					v, err := strconv.Unquote(lit.Value)
					if err == nil && strings.Contains(v, "2.1.0") {
						return v
					}
				}
			}
		}
	}
	t.Fatalf("no schema constant in %s", file)
	return ""
}
