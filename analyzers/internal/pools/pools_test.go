package pools_test

import (
	"fmt"
	"go/ast"
	"slices"
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
// "Kind obj [limit=N] [via helper]: task routable|unroutable [body=N]
// [funcs=...] [recv] [branch=N] [iface=M]", and each branch of workers that
// dispatch on data as "Kind obj: branch N of M [common=K]" at its case, or
// "Kind obj: data common=K" at the worker's loop body.
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
				if d := p.Data; d != nil && t.Branch != nil {
					fmt.Fprintf(&b, " branch=%d", slices.Index(d.Branches, t.Branch))
				}
				if t.Iface != nil {
					b.WriteString(" iface=" + t.Iface.Name())
				}
				pass.Reportf(t.Submit.Pos(), "%s", b.String())
			}
			if d := p.Data; d != nil {
				for i, br := range d.Branches {
					pass.Reportf(br.Clause.Pos(), "%s: branch %d of %d common=%d", head, i, len(d.Branches), len(d.Common))
				}
				if d.Switch == nil {
					pass.Reportf(d.Common[0].Pos(), "%s: data common=%d", head, len(d.Common))
				}
			}
		}
		return nil, nil
	},
}

func TestFind(t *testing.T) {
	analysistest.Run(t, fixtest.TestData(), reporter, "pools/shapes")
}
