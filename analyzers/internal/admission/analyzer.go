package admission

import (
	"go/ast"
	"go/types"
	"reflect"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/timing"
)

// Analyzer computes the admission vocabulary of a package: the helper facts
// of its functions, exported for the packages that import it, and a
// [Result] that answers the checks' questions. Checks list it in their
// Requires; it reports nothing itself.
var Analyzer = &analysis.Analyzer{
	Name:       "queuecheckadmission",
	Doc:        "computes which functions of a package are admission waits, sends, try-sends and pauses, for the queuecheck checks",
	Requires:   []*analysis.Analyzer{inspect.Analyzer},
	Run:        run,
	ResultType: reflect.TypeFor[*Result](),
	FactTypes:  []analysis.Fact{new(FuncFact)},
}

func run(pass *analysis.Pass) (any, error) {
	r := &Result{
		pass:    pass,
		info:    pass.TypesInfo,
		insp:    pass.ResultOf[inspect.Analyzer].(*inspector.Inspector),
		helpers: make(map[types.Object]*FuncFact),
		lits:    make(map[*types.Var]*FuncFact),
		isTest:  isTestFile(pass),
		timers:  make(map[*types.Func]*timing.Helper),
	}
	// The facts of every package this one imports, directly or not: one
	// call, proportional to the number of helpers, not of calls.
	for _, of := range pass.AllObjectFacts() {
		if ff, ok := of.Fact.(*FuncFact); ok {
			r.helpers[of.Object] = ff
		}
	}
	// The standard library has no helper worth a fact, and walking its
	// bodies would cost every build that analyzes it.
	if code.IsStd(pass) {
		r.ready = true
		return r, nil
	}
	decls := calleesFirst(r.info, pass.Pkg, r.declsOf(r.isTest))
	r.classifyAll(decls)
	if r.classifyInterfaces() {
		// Callers in this package of the interfaces' methods may now
		// wait inside too.
		r.classifyAll(decls)
	}
	r.classifyWork(decls)
	if r.classifyInterfaces() {
		// The interfaces' methods whose implementations work: their
		// callers in this package work too.
		r.classifyWork(decls)
	}
	for fn, ff := range r.helpers {
		fn, ok := fn.(*types.Func)
		if ok && fn.Pkg() == pass.Pkg && fn.Exported() {
			pass.ExportObjectFact(fn, ff)
		}
	}
	r.ready = true
	return r, nil
}

// isTestFile returns a predicate that reports whether a file of pass is a
// test file: no other package calls what a test file declares.
func isTestFile(pass *analysis.Pass) func(*ast.File) bool {
	return func(f *ast.File) bool {
		return strings.HasSuffix(pass.Fset.File(f.Pos()).Name(), "_test.go")
	}
}
