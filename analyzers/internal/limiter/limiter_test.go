package limiter_test

import (
	"fmt"
	"go/ast"
	"go/types"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/calls"
	"github.com/queuecheck/queuecheck/analyzers/internal/fixtest"
	"github.com/queuecheck/queuecheck/analyzers/internal/limiter"
)

// extra lists enter as a blocking acquire, as -unboundedqueue.acquire would.
var extra = calls.New("-unboundedqueue.acquire")

func init() {
	if err := extra.Set("unboundedqueue/limiter.enter"); err != nil {
		panic(err)
	}
}

var kindNames = map[limiter.Kind]string{
	limiter.SemaphoreChan: "SemaphoreChan",
	limiter.TokenChan:     "TokenChan",
	limiter.Semaphore:     "Semaphore",
	limiter.RateLimiter:   "RateLimiter",
	limiter.Gate:          "Gate",
	limiter.LimitedGroup:  "LimitedGroup",
	limiter.TryAcquire:    "TryAcquire",
	limiter.Listed:        "Listed",
}

// acquires reports every acquire as "Kind limiter blocking|nonblocking".
var acquires = &analysis.Analyzer{
	Name:     "acquires",
	Doc:      "reports limiter acquires",
	Requires: []*analysis.Analyzer{inspect.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		insp := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
		f := limiter.New(pass.TypesInfo, insp, extra)
		for cur := range insp.Root().Preorder((*ast.SendStmt)(nil), (*ast.UnaryExpr)(nil), (*ast.CallExpr)(nil)) {
			a, ok := f.Acquire(cur.Node())
			if !ok {
				continue
			}
			blocking := "nonblocking"
			if a.Blocking() {
				blocking = "blocking"
			}
			var name any = a.Limiter
			if a.Limiter != nil {
				name = types.ExprString(limiterExpr(a.Node))
			}
			pass.Reportf(a.Node.Pos(), "%s %v %s", kindNames[a.Kind], name, blocking)
		}
		return nil, nil
	},
}

func limiterExpr(n ast.Node) ast.Expr {
	switch n := n.(type) {
	case *ast.SendStmt:
		return n.Chan
	case *ast.UnaryExpr:
		return n.X
	case *ast.CallExpr:
		if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok {
			return sel.X
		}
	}
	return &ast.Ident{Name: fmt.Sprint(n)}
}

func TestAcquire(t *testing.T) {
	analysistest.Run(t, fixtest.TestData(), acquires, "unboundedqueue/limiter")
}
