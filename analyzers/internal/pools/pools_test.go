package pools_test

import (
	"fmt"
	"go/ast"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/admission"
	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/consts"
	"github.com/queuecheck/queuecheck/analyzers/internal/fixtest"
	"github.com/queuecheck/queuecheck/analyzers/internal/pools"
)

var kinds = map[pools.Kind]string{
	pools.Semaphore: "Semaphore", pools.Group: "Group", pools.TokenChan: "TokenChan", pools.Workers: "Workers",
}

// reporter reports every task of every pool as
// "Kind obj [limit=N] [via helper]: task routable|unroutable [body=N] [funcs=...] [recv]".
var reporter = &analysis.Analyzer{
	Name:     "pools",
	Doc:      "reports pools and their tasks",
	Requires: []*analysis.Analyzer{inspect.Analyzer, admission.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		insp := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
		adm := pass.ResultOf[admission.Analyzer].(*admission.Result).Finder(admission.Options{})
		for _, p := range pools.Find(pass, insp, adm, func(*ast.File) bool { return false }) {
			head := kinds[p.Kind] + " " + p.Obj.Name()
			if n, ok := consts.Int(pass.TypesInfo, p.Limit); ok && p.Limit != nil {
				head += fmt.Sprintf(" limit=%d", n)
			}
			if p.Via != nil {
				head += " via " + code.DisplayName(p.Via)
			}
			for _, t := range p.Tasks {
				var b strings.Builder
				b.WriteString(head + ": task ")
				if t.Routable {
					b.WriteString("routable")
				} else {
					b.WriteString("unroutable")
				}
				if len(t.Body) > 0 {
					fmt.Fprintf(&b, " body=%d", len(t.Body))
				}
				if len(t.Funcs) > 0 {
					var names []string
					for _, fn := range t.Funcs {
						names = append(names, code.DisplayName(fn))
					}
					b.WriteString(" funcs=" + strings.Join(names, ","))
				}
				if p.RecvAcquire {
					b.WriteString(" recv")
				}
				pass.Reportf(t.Submit.Pos(), "%s", b.String())
			}
		}
		return nil, nil
	},
}

func TestFind(t *testing.T) {
	analysistest.Run(t, fixtest.TestData(), reporter, "pools/shapes")
}
