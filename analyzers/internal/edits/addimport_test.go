package edits

import (
	"go/token"
	"testing"
)

func TestAddImport(t *testing.T) {
	for _, test := range []struct {
		name  string
		files []string // name, source, ...: the import goes into the first
		use   string   // a marker in the first file where the fix names the package; "" for none
		want  string   // the name, or "" when AddImport must fail
		edits int
	}{
		{
			name:  "a new import",
			files: []string{"a.go", "package p\n\nimport \"fmt\"\n\nfunc f() { fmt.Println() /*use*/ }\n"},
			use:   "/*use*/",
			want:  "errors",
			edits: 1,
		},
		{
			name:  "an existing import",
			files: []string{"a.go", "package p\n\nimport \"errors\"\n\nvar e = errors.New(\"\")\n\nfunc f() { /*use*/ }\n"},
			use:   "/*use*/",
			want:  "errors",
		},
		{
			name:  "an existing import under another name",
			files: []string{"a.go", "package p\n\nimport stderrors \"errors\"\n\nvar e = stderrors.New(\"\")\n\nfunc f() { /*use*/ }\n"},
			use:   "/*use*/",
			want:  "stderrors",
		},
		{
			name:  "an existing import shadowed at the use",
			files: []string{"a.go", "package p\n\nimport \"errors\"\n\nvar e = errors.New(\"\")\n\nfunc f(errors []error) { /*use*/ }\n"},
			use:   "/*use*/",
		},
		{
			name:  "a local declared at the use",
			files: []string{"a.go", "package p\n\nfunc f() {\n\terrors := 0\n\t_ = errors /*use*/\n}\n"},
			use:   "/*use*/",
		},
		{
			name:  "a local of another function does not shadow the use",
			files: []string{"a.go", "package p\n\nfunc f() {\n\terrors := 0\n\t_ = errors\n}\n\nfunc g() { /*use*/ }\n"},
			use:   "/*use*/",
			want:  "errors",
			edits: 1,
		},
		{
			name:  "a package-level declaration in another file",
			files: []string{"a.go", "package p\n\nfunc f() { /*use*/ }\n", "b.go", "package p\n\nvar errors []error\n"},
			use:   "/*use*/",
		},
		{
			name:  "another package imported under the name",
			files: []string{"a.go", "package p\n\nimport errors \"example.com/pkg/errors\"\n\nvar _ = errors.Wrap\n"},
		},
		{
			name:  "another file's import of another package under the name",
			files: []string{"a.go", "package p\n\nfunc f() { /*use*/ }\n", "b.go", "package p\n\nimport errors \"example.com/pkg/errors\"\n\nvar _ = errors.Wrap\n"},
			use:   "/*use*/",
			want:  "errors",
			edits: 1,
		},
	} {
		t.Run(test.name, func(t *testing.T) {
			pass := newPass(t, test.files...)
			var uses []token.Pos
			if test.use != "" {
				uses = append(uses, at(t, pass, test.files[0], test.use))
			}
			name, es, ok := AddImport(pass, pass.Files[0], "errors", uses...)
			if ok != (test.want != "") || name != test.want || len(es) != test.edits {
				t.Errorf("AddImport = %q, %d edits, %v; want %q, %d edits, %v", name, len(es), ok, test.want, test.edits, test.want != "")
			}
		})
	}
}
