package admission_test

import (
	"fmt"
	"go/ast"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/queuecheck/queuecheck/analyzers/internal/admission"
	"github.com/queuecheck/queuecheck/analyzers/internal/calls"
	"github.com/queuecheck/queuecheck/analyzers/internal/fixtest"
)

// reporter returns an analyzer that reports every wait the finder with opts
// finds, as "Kind on blocking|try [via helper]".
func reporter(name string, opts admission.Options) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:     name,
		Doc:      "reports admission waits",
		Requires: []*analysis.Analyzer{admission.Analyzer},
		Run: func(pass *analysis.Pass) (any, error) {
			res := pass.ResultOf[admission.Analyzer].(*admission.Result)
			f := res.Finder(opts)
			kinds := []ast.Node{(*ast.SendStmt)(nil), (*ast.UnaryExpr)(nil), (*ast.CallExpr)(nil), (*ast.SelectStmt)(nil)}
			for cur := range res.Inspector().Root().Preorder(kinds...) {
				w, ok := f.At(cur)
				if !ok {
					continue
				}
				on, mode := "-", "blocking"
				if w.On != nil {
					on = w.On.Name()
				}
				if w.Try {
					mode = "try"
				}
				msg := fmt.Sprintf("%s %s %s", w.Kind, on, mode)
				if w.Via != nil || w.Name != "" && w.Kind != admission.Listed && isHelperCall(w) {
					msg += " via " + w.Name
				}
				pass.Reportf(w.Node.Pos(), "%s", msg)
			}
			return nil, nil
		},
	}
}

// isHelperCall reports whether w is a call of a local function literal
// that waits.
func isHelperCall(w admission.Wait) bool {
	call, ok := w.Node.(*ast.CallExpr)
	if !ok {
		return false
	}
	_, ok = call.Fun.(*ast.Ident)
	return ok && w.Name == call.Fun.(*ast.Ident).Name
}

func listed(t *testing.T, names string) *calls.Table {
	tab := new(calls.Table)
	if err := tab.Set(names); err != nil {
		t.Fatal(err)
	}
	return tab
}

func TestLoose(t *testing.T) {
	a := reporter("loose", admission.Options{Extra: listed(t, "admission/loose.enter")})
	analysistest.Run(t, fixtest.TestData(), a, "admission/loose")
}

func TestStrict(t *testing.T) {
	analysistest.Run(t, fixtest.TestData(), reporter("strict", admission.Options{Strict: true}), "admission/strict")
}

func TestFacts(t *testing.T) {
	analysistest.Run(t, fixtest.TestData(), admission.Analyzer, "admission/helpers", "admission/condstore", "admission/ctxfirst", "admission/jobpool", "waittiming/scoped/scope", "waittiming/dispatch/connpool", "waittiming/dispatch/client", "waittiming/leaving/store", "waittiming/poolget/connpool")
}

func TestHelpersAcrossPackages(t *testing.T) {
	analysistest.Run(t, fixtest.TestData(), reporter("loose", admission.Options{}), "admission/callers")
}
