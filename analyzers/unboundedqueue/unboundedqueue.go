package unboundedqueue

import (
	_ "embed"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/queuecheck/queuecheck/analyzers/internal/admission"
	"github.com/queuecheck/queuecheck/analyzers/internal/calls"
	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
	"github.com/queuecheck/queuecheck/analyzers/internal/knowledge"
	"github.com/queuecheck/queuecheck/analyzers/internal/report"
	"github.com/queuecheck/queuecheck/analyzers/unboundedqueue/internal/queuefact"
	"github.com/queuecheck/queuecheck/analyzers/unboundedqueue/internal/shared"
	"github.com/queuecheck/queuecheck/analyzers/unboundedqueue/spawn"
)

// Analyzer reports queues that grow without a bound.
var Analyzer = &analysis.Analyzer{
	Name:     "unboundedqueue",
	Doc:      doc,
	URL:      report.URL("unboundedqueue"),
	Requires: []*analysis.Analyzer{inspect.Analyzer, report.Analyzer, admission.Analyzer, queuefact.Analyzer, spawn.PerCallAnalyzer},
	Run:      run,
}

//go:embed doc.go
var docFile string

var doc = report.Doc(docFile, "unboundedqueue")

var (
	queueBound int64 = 1024
	inFlight   int64 = 64
	acquires         = calls.New("-unboundedqueue.acquire")
)

func init() {
	report.AddWhyFlag(&Analyzer.Flags)
	Analyzer.Flags.Int64Var(&queueBound, "bound", queueBound, "length limit the fix declares for a slice or list queue")
	Analyzer.Flags.Int64Var(&inFlight, "inflight", inFlight, "number of goroutines in flight the fix's semaphore allows")
	Analyzer.Flags.Var(acquires, "acquire", "further blocking acquire calls, comma-separated: pkg/path.Func, pkg/path.Type.Method or (*pkg/path.Type).Method")
	knowledge.MessageReads.Register(&Analyzer.Flags, Analyzer.Name)
	knowledge.AMQPPackages.Register(&Analyzer.Flags, Analyzer.Name)
	knowledge.BoundedDequeWords.Register(&Analyzer.Flags, Analyzer.Name)
}

// A checker holds what one pass has learned for the queue kinds; the
// goroutine-spawn kinds have a checker of their own, in package spawn.
type checker struct {
	sh   *shared.Pkg // what both halves use
	pass *analysis.Pass
	rep  *report.Reporter
	insp *inspector.Inspector
	adm  *admission.Finder

	// Candidates from the one walk over the package.
	loops   []inspector.Cursor // every for and range statement
	reslice []inspector.Cursor // every x[k:] with a low bound and no high bound
	calls   []inspector.Cursor // method calls on container/list values and slices.Delete
	assigns []inspector.Cursor // plain assignments (q = …) and delete(m, k) statements

	pumped   map[ast.Node]bool                 // appends reported as the buffer of a pump
	stores   []indexStore                      // items[idx] = x on shared maps and slices
	deletes  map[*types.Var][]inspector.Cursor // delete(items, k) statements, by map
	findings []*shared.Finding

	fix  *fixer  // builds the findings and their fixes
	lens lengths // what reads a queue's length
}

func run(pass *analysis.Pass) (any, error) {
	rep := report.New(pass)
	defer rep.Finish()
	acquires.Verify(pass.Pkg)

	sh := &shared.Pkg{
		Pass:  pass,
		Rep:   rep,
		Insp:  pass.ResultOf[inspect.Analyzer].(*inspector.Inspector),
		Res:   pass.ResultOf[admission.Analyzer].(*admission.Result),
		Names: edits.NewNames(pass),
	}
	c := &checker{
		sh:      sh,
		pass:    pass,
		rep:     rep,
		insp:    sh.Insp,
		pumped:  make(map[ast.Node]bool),
		deletes: make(map[*types.Var][]inspector.Cursor),
		fix:     &fixer{sh: sh, pass: pass, rep: rep, names: sh.Names, declared: make(map[ast.Decl][]declaration)},
		lens:    lengths{sh: sh, pass: pass},
	}
	// A producer of another package's queue type needs none of the shapes
	// collect looks for: the imported push facts say whether to look on.
	facts := pass.ResultOf[queuefact.Analyzer].(*queuefact.Result)
	if !c.collect() && !facts.Imported(pass.Pkg) {
		rep.SilencePackage(pass.Files, ruleNothingToQueue)
		return nil, nil
	}
	if !mayStartGoroutines(pass, sh.GoStmts) {
		rep.SilencePackage(pass.Files, ruleNoSpawn)
	}
	sh.Adm = sh.Res.Finder(admission.Options{Extra: acquires})
	c.adm = sh.Adm

	// The spawn kinds first: their findings come first, as they always have.
	c.findings = spawn.Check(sh, c.loops, inFlight, pass.ResultOf[spawn.PerCallAnalyzer].(*spawn.PerCallResult))
	c.pumps()
	c.sliceFIFOs()
	c.indexFIFOs()
	c.listFIFOs()
	c.findings = append(c.findings, (&producers{c: c, facts: facts}).findings()...)

	c.fix.reportAll(c.findings)
	return nil, nil
}

// collect gathers, in one walk over the production files, the nodes any kind
// starts from, and reports whether there is anything to look at.
func (c *checker) collect() bool {
	// Calls matter for lists, slices.Delete and deques; the deque types are
	// of any package, so any import may bring one.
	kinds := []ast.Node{(*ast.GoStmt)(nil), (*ast.ForStmt)(nil), (*ast.RangeStmt)(nil), (*ast.SliceExpr)(nil), (*ast.AssignStmt)(nil), (*ast.ExprStmt)(nil), (*ast.CallExpr)(nil)}
	shaped := false
	for file := range c.insp.Root().Children() {
		f := file.Node().(*ast.File)
		if c.rep.Skip(f) {
			continue
		}
		for cur := range file.Preorder(kinds...) {
			if c.rep.InHook(f, cur.Node().Pos()) {
				continue
			}
			switch n := cur.Node().(type) {
			case *ast.GoStmt:
				c.sh.GoStmts = append(c.sh.GoStmts, cur)
			case *ast.ForStmt, *ast.RangeStmt:
				c.loops = append(c.loops, cur)
			case *ast.SliceExpr:
				if n.Low != nil && n.High == nil && !n.Slice3 {
					c.reslice = append(c.reslice, cur)
				}
			case *ast.CallExpr:
				if isListOrDelete(c.pass.TypesInfo, n) {
					c.calls = append(c.calls, cur)
				}
			case *ast.AssignStmt:
				if n.Tok == token.ASSIGN {
					c.assigns = append(c.assigns, cur)
					if _, ok := c.indexStoreAt(cur); ok {
						shaped = true // a map or ring queue needs no loop or re-slice
					}
					if c.resetsQueue(n) {
						shaped = true // a queue taken whole and reset needs none either
					}
				}
			case *ast.ExprStmt:
				if call, ok := n.X.(*ast.CallExpr); ok && code.BuiltinName(c.pass.TypesInfo, call) == "delete" {
					c.assigns = append(c.assigns, cur)
				}
			}
		}
	}
	// A stream loop needs a go statement or a Go method call inside it; a
	// package without go statements still has loops, so only a go statement,
	// a re-slice or a list call makes the package worth a closer look, and
	// loops matter only with a spawn, which needs "go" or errgroup/sync.
	if !mayStartGoroutines(c.pass, c.sh.GoStmts) {
		c.loops = nil
	}
	// A handler that calls a function spawning per call needs none of them.
	reaches := c.pass.ResultOf[spawn.PerCallAnalyzer].(*spawn.PerCallResult).Reaches(c.pass.Pkg)
	return len(c.sh.GoStmts) > 0 || len(c.loops) > 0 || len(c.reslice) > 0 || len(c.calls) > 0 || shaped || reaches
}

// mayStartGoroutines reports whether the package may start a goroutine: it
// has a go statement, imports errgroup or sync, whose Go methods start
// one, or may call a function that starts one per call (spawn's per-call
// facts). Without any, no loop of it spawns, and the spawn kinds look at
// none (the rule no-spawn).
func mayStartGoroutines(pass *analysis.Pass, goStmts []inspector.Cursor) bool {
	pkg := pass.Pkg
	return len(goStmts) > 0 || code.Imports(pkg, code.ErrgroupPath) || code.Imports(pkg, "sync") ||
		pass.ResultOf[spawn.PerCallAnalyzer].(*spawn.PerCallResult).Reaches(pkg)
}

// resetsQueue reports whether the assignment a empties a slice field or
// package variable: q.items = nil, p.frame = message.NewFrame(n).
func (c *checker) resetsQueue(a *ast.AssignStmt) bool {
	if len(a.Lhs) != len(a.Rhs) {
		return false
	}
	for i, lhs := range a.Lhs {
		if c.isEmptySlice(a.Rhs[i]) && c.isSliceQueue(code.Var(c.pass.TypesInfo, lhs)) {
			return true
		}
	}
	return false
}

// isListOrDelete reports whether call is a method call on a container/list
// List, a push or pop of a deque, or a call to slices.Delete: the calls the
// FIFO kinds look at.
func isListOrDelete(info *types.Info, call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	switch sel.Sel.Name {
	case "PushBack", "PushFront", "PopFront", "PopBack", "Remove", "Delete", "Front", "Back", "Len", "Init":
	default:
		return false // most calls: no type lookup
	}
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok || fn.Pkg() == nil {
		return false
	}
	switch fn.Pkg().Path() {
	case "container/list":
		return isListType(code.Recv(fn))
	case "slices":
		return fn.Name() == "Delete"
	}
	return isDequeType(code.Recv(fn))
}

// isDequeType reports whether t, or what it points to, is a double-ended
// queue of some package (gammazero/deque, a home-made generic one): a named
// type with Len() int and, for one end, a push and, for the other, a pop
// that returns the item, PushBack beside PopFront or PushFront beside
// PopBack. It holds as many items as are pushed: nothing bounds it.
func isDequeType(t types.Type) bool {
	n := code.NamedOf(t)
	if n == nil {
		return false
	}
	has := func(name string, params, results int) bool {
		obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(n), true, n.Obj().Pkg(), name)
		fn, ok := obj.(*types.Func)
		return ok && fn.Signature().Params().Len() == params && fn.Signature().Results().Len() == results
	}
	if !has("Len", 0, 1) {
		return false
	}
	backToFront := has("PushBack", 1, 0) && has("PopFront", 0, 1)
	frontToBack := has("PushFront", 1, 0) && has("PopBack", 0, 1)
	if !backToFront && !frontToBack {
		return false
	}
	// A ring of fixed capacity has the same methods and overwrites the
	// oldest: its name says so.
	return !knowledge.BoundedDequeWords.Match(strings.ToLower(n.Obj().Name()))
}

// isListType reports whether t is container/list.List or a pointer to it.
func isListType(t types.Type) bool {
	n := code.NamedOf(t)
	return n != nil && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "container/list" && n.Obj().Name() == "List"
}
