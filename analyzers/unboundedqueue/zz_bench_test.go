package unboundedqueue_test

import (
	"fmt"
	"go/ast"
	"os"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/packages"

	"github.com/queuecheck/queuecheck/analyzers/internal/report"
	"github.com/queuecheck/queuecheck/analyzers/unboundedqueue"
)

func TestCost(t *testing.T) {
	pattern := os.Getenv("COST")
	if pattern == "" {
		t.Skip()
	}
	cfg := &packages.Config{Mode: packages.LoadAllSyntax}
	pkgs, err := packages.Load(cfg, pattern)
	if err != nil {
		t.Fatal(err)
	}
	var tq, ti, tqFast, tiFast time.Duration
	nFast, n := 0, 0
	const reps = 5
	for _, p := range pkgs {
		if len(p.Errors) > 0 || p.Types == nil {
			continue
		}
		mk := func(a *analysis.Analyzer, res map[*analysis.Analyzer]any) *analysis.Pass {
			return &analysis.Pass{Analyzer: a, Fset: p.Fset, Files: p.Syntax, Pkg: p.Types, TypesInfo: p.TypesInfo, TypesSizes: p.TypesSizes,
				ResultOf: res, Report: func(analysis.Diagnostic) {}, ReadFile: os.ReadFile}
		}
		insp := inspector.New(p.Syntax)
		rr, _ := report.Analyzer.Run(mk(report.Analyzer, nil))
		res := map[*analysis.Analyzer]any{inspect.Analyzer: insp, report.Analyzer: rr}
		start := time.Now()
		for range reps {
			inspector.New(p.Syntax)
		}
		di := time.Since(start) / reps
		start = time.Now()
		for range reps {
			unboundedqueue.Analyzer.Run(mk(unboundedqueue.Analyzer, res))
		}
		dq := time.Since(start) / reps
		fast := true
		for _, f := range p.Syntax {
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.GoStmt:
					fast = false
				case *ast.SliceExpr:
					if n.Low != nil && n.High == nil {
						fast = false
					}
				}
				return fast
			})
		}
		for _, imp := range p.Types.Imports() {
			if imp.Path() == "container/list" {
				fast = false
			}
		}
		if os.Getenv("TOP") != "" && dq > 2*time.Millisecond {
			fmt.Printf("%v %v %s\n", dq, di, p.PkgPath)
		}
		n++
		tq += dq
		ti += di
		if fast {
			nFast++
			tqFast += dq
			tiFast += di
		}
	}
	fmt.Printf("all %d packages: unboundedqueue %v, inspector.New %v (%.1f%%)\n", n, tq, ti, 100*float64(tq)/float64(ti))
	fmt.Printf("%d packages with no go statement, no x[k:] and no container/list: unboundedqueue %v, inspector.New %v (%.1f%%)\n", nFast, tqFast, tiFast, 100*float64(tqFast)/float64(tiFast))
}
