package unboundedqueue

import (
	"go/ast"
	"go/types"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"

	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
	"github.com/queuecheck/queuecheck/analyzers/internal/report"
	"github.com/queuecheck/queuecheck/analyzers/unboundedqueue/internal/shared"
)

// A fixer builds the findings of the queue kinds and their fixes, and
// reports them, with the top-level declarations their fixes add.
type fixer struct {
	sh       *shared.Pkg
	pass     *analysis.Pass
	rep      *report.Reporter
	names    *edits.Names
	declared map[ast.Decl][]declaration // by the declaration they go before
}

// A declaration is one top-level declaration a fix adds.
type declaration struct {
	text   string
	errors bool // uses package errors
}

// reportAll completes every one of findings's fix and reports it.
//
// Two findings whose declarations go before the same top-level declaration
// get the same edit there, holding the declarations of both: drivers merge
// identical edits, while two different insertions at one position would
// collide. A fix applied alone then declares a constant it does not use,
// which compiles.
func (c *fixer) reportAll(findings []*shared.Finding) {
	for _, f := range findings {
		if len(f.Edits) == 0 {
			c.rep.Report(f.Diag) // no safe fix: the message says what to do by hand
			continue
		}
		es := f.Edits
		if decls := c.declared[f.Anchor]; f.Anchor != nil && len(decls) > 0 {
			var texts []string
			needErrors := false
			for _, d := range decls {
				texts = append(texts, d.text)
				needErrors = needErrors || d.errors
			}
			es = append(es, edits.InsertDeclBefore(f.Anchor, strings.Join(texts, "\n\n")))
			if needErrors {
				_, imp, _ := edits.AddImport(c.pass, f.File, "errors") // it could when the sentinel was declared
				es = append(es, imp...)
			}
		}
		if es, ok := edits.Finish(c.pass, es); ok {
			f.Diag.SuggestedFixes = []analysis.SuggestedFix{edits.Fix(f.Msg, es...)}
		} // else edits that collide or do not parse: the finding goes without a fix
		c.rep.Report(f.Diag)
	}
}

// rejectReturn returns the return statement that rejects an item in the
// function with signature sig, returning errName as its error, or false when
// the function does not end its results with an error or a zero value cannot
// be written.
func (c *fixer) rejectReturn(file *ast.File, sig *types.Signature, errName string) (string, bool) {
	if sig == nil {
		return "", false
	}
	res := sig.Results()
	if res.Len() == 0 || !types.Identical(res.At(res.Len()-1).Type(), shared.ErrorType) {
		return "", false
	}
	var vals []string
	for i := range res.Len() - 1 {
		z, ok := edits.ZeroValue(c.pass.Pkg, file, res.At(i).Type())
		if !ok {
			return "", false
		}
		vals = append(vals, z)
	}
	return "return " + strings.Join(append(vals, errName), ", "), true
}

// exportedName capitalises the first letter of name for use inside a
// camel-case identifier.
func exportedName(name string) string {
	r, size := utf8.DecodeRuneInString(name)
	return string(unicode.ToUpper(r)) + name[size:]
}
