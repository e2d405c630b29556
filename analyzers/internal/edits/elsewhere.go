package edits

import (
	"go/ast"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"

	"golang.org/x/tools/go/analysis"
)

// MentionedElsewhere reports whether a Go file in the directory of the file
// at pos that the pass does not analyze may refer to name: a test file, a
// file of another platform, or one a build tag leaves out. The analyzed
// package never saw those uses, so deleting a declaration of that name, or
// changing its value, could break a build this run cannot check. A
// directory that cannot be read counts as yes.
func MentionedElsewhere(pass *analysis.Pass, pos token.Pos, name string) bool {
	tf := pass.Fset.File(pos)
	if tf == nil {
		return true
	}
	files, err := filepath.Glob(filepath.Join(filepath.Dir(tf.Name()), "*.go"))
	if err != nil {
		return true
	}
	word := regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b`)
	for _, f := range files {
		if slices.ContainsFunc(pass.Files, func(af *ast.File) bool { return pass.Fset.File(af.Pos()).Name() == f }) {
			continue // analyzed with the package: its uses were counted
		}
		data, err := os.ReadFile(f)
		if err != nil || word.Match(data) {
			return true
		}
	}
	return false
}
