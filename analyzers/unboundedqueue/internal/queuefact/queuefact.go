// Package queuefact computes, for the unboundedqueue check, which methods
// of a package's named types are the push of a queue that never refuses,
// and exports it as a fact: a queue type declared in a utility package and
// filled from service packages is then seen at each producer's call site.
package queuefact

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/consts"
)

// Analyzer exports a [PushFact] on each exported push of a queue type of
// the analyzed package, and returns a [*Result] with the facts of the
// package and of every package it imports. It reports nothing.
var Analyzer = &analysis.Analyzer{
	Name:       "queuecheckqueuefact",
	Doc:        "computes which methods of a package's types push onto a queue that never refuses, for the unboundedqueue check",
	Requires:   []*analysis.Analyzer{inspect.Analyzer},
	Run:        run,
	ResultType: reflect.TypeFor[*Result](),
	FactTypes:  []analysis.Fact{new(PushFact)},
}

// A PushFact marks a method of a named type as the push of a queue whose
// push never refuses and whose store has no bound, of a type that leaves
// locking to its callers (see selfSynchronized): its body appends one
// item to a slice field of the receiver, or pushes one onto a
// container/list field, with no length check, trim, eviction or wait, in
// it or in a method of the type it calls; and another method of the type
// drains the store: from the front, item by item (q.items = q.items[1:], a
// Remove of the list's Front, a PopFront), or whole (a take-all that
// resets it, a Reset).
//
// Front tells a FIFO from a batch: a pop that takes from the front while
// producers keep pushing is a queue's, whoever calls it; a pop that empties
// the store whole is a queue's only when a consumer other than the producer
// runs it (a swap-and-drain pair between goroutines), and a batch builder's
// flush when the owner that fills it empties it. Who runs the pop is known
// at the callers, so the fact says only what the pop does.
type PushFact struct {
	Store string // the receiver's field that holds the items: "items"
	List  bool   // the store is a container/list, not a slice
	Pop   string // the method that drains it: "Pop"
	Front bool   // Pop takes from the front, item by item; otherwise it empties the store whole
}

// AFact marks PushFact as an analysis fact.
func (*PushFact) AFact() {}

func (f *PushFact) String() string {
	kind := "slice"
	if f.List {
		kind = "list"
	}
	how := "emptied whole by"
	if f.Front {
		how = "drained from the front by"
	}
	return fmt.Sprintf("push never refuses: %s store .%s, %s %s", kind, f.Store, how, f.Pop)
}

// A Result holds the push facts of the analyzed package and of the packages
// it imports.
type Result struct {
	pushes map[*types.Func]*PushFact
}

// Push returns the fact of the method fn (of its generic origin), or nil.
func (r *Result) Push(fn *types.Func) *PushFact {
	if fn == nil {
		return nil
	}
	return r.pushes[fn.Origin()]
}

// Imported reports whether any package the analyzed one imports has a push
// fact: without one there is no cross-package producer to look at.
func (r *Result) Imported(pkg *types.Package) bool {
	for fn := range r.pushes {
		if fn.Pkg() != pkg {
			return true
		}
	}
	return false
}

func run(pass *analysis.Pass) (any, error) {
	r := &Result{pushes: make(map[*types.Func]*PushFact)}
	for _, of := range pass.AllObjectFacts() {
		if f, ok := of.Fact.(*PushFact); ok {
			if fn, ok := of.Object.(*types.Func); ok {
				r.pushes[fn] = f
			}
		}
	}
	// The standard library's containers (container/list itself) are the
	// stores, not queue types of a service.
	if code.IsStd(pass) {
		return r, nil
	}
	insp := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	methods := methodsByType(pass, insp)
	for _, ms := range methods {
		for _, m := range ms {
			if f := pushFact(pass.TypesInfo, m, ms); f != nil {
				r.pushes[m.fn] = f
				if m.fn.Exported() && m.named.Obj().Exported() {
					pass.ExportObjectFact(m.fn, f)
				}
			}
		}
	}
	return r, nil
}

// A method is one declared method of a named type of the package, with its
// receiver variable.
type method struct {
	fn    *types.Func
	named *types.Named
	recv  *types.Var
	decl  *ast.FuncDecl
}

// methodsByType returns the methods with bodies of the package's named
// types, declared in its production files, grouped by type.
func methodsByType(pass *analysis.Pass, insp *inspector.Inspector) map[*types.TypeName][]method {
	out := make(map[*types.TypeName][]method)
	for cur := range insp.Root().Preorder((*ast.FuncDecl)(nil)) {
		fd := cur.Node().(*ast.FuncDecl)
		if fd.Recv == nil || fd.Body == nil || len(fd.Recv.List) != 1 || len(fd.Recv.List[0].Names) != 1 {
			continue
		}
		if strings.HasSuffix(pass.Fset.File(fd.Pos()).Name(), "_test.go") {
			continue
		}
		fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
		recv, _ := pass.TypesInfo.Defs[fd.Recv.List[0].Names[0]].(*types.Var)
		if fn == nil || recv == nil {
			continue
		}
		n := code.NamedOf(recv.Type())
		if n == nil {
			continue
		}
		out[n.Obj()] = append(out[n.Obj()], method{fn: fn, named: n, recv: recv, decl: fd})
	}
	return out
}

// pushFact returns the fact of m when it is a push that never refuses onto
// a store that a sibling method drains, or nil.
func pushFact(info *types.Info, m method, siblings []method) *PushFact {
	store, isList := pushedStore(info, m)
	if store == nil || guards(info, m, store, siblings, 0) || selfSynchronized(info, siblings) {
		return nil
	}
	// A pop from the front wins over a whole drain: a FIFO may also have a
	// Clear, and its callers are a queue's producers whoever clears it.
	var whole *method
	for _, s := range siblings {
		if s.fn == m.fn {
			continue
		}
		switch front, all := drains(info, s, store, isList); {
		case front:
			return &PushFact{Store: store.Name(), List: isList, Pop: s.fn.Name(), Front: true}
		case all && whole == nil:
			whole = &s
		}
	}
	if whole != nil {
		return &PushFact{Store: store.Name(), List: isList, Pop: whole.fn.Name()}
	}
	return nil
}

// selfSynchronized reports whether a method of the type locks (a sync
// call: Lock, RLock, Wait) or starts a goroutine. Such a type is a queue
// between goroutines in its own package, where the queue kinds see its
// append and decide, by their own rules, whether to report it there; a fact
// would report the same queue a second time at its callers. A type that
// leaves locking to its callers is silent in its own package ("not
// shared"), and only its callers show the missing bound.
func selfSynchronized(info *types.Info, methods []method) bool {
	for _, m := range methods {
		found := false
		ast.Inspect(m.decl.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GoStmt:
				found = true
			case *ast.CallExpr:
				fn := code.Callee(info, n)
				found = fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "sync"
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// pushedStore returns the receiver's field that m's body adds one item to,
// m.f = append(m.f, x) or m.f.PushBack(x), and whether it is a list; nil
// when the body adds to none or to several.
func pushedStore(info *types.Info, m method) (store *types.Var, isList bool) {
	count := 0
	ast.Inspect(m.decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false // runs elsewhere
		case *ast.AssignStmt:
			if n.Tok != token.ASSIGN || len(n.Lhs) != 1 || len(n.Rhs) != 1 {
				return true
			}
			call, ok := ast.Unparen(n.Rhs[0]).(*ast.CallExpr)
			if !ok || code.BuiltinName(info, call) != "append" || len(call.Args) != 2 || call.Ellipsis.IsValid() {
				return true
			}
			if f := recvField(info, m.recv, n.Lhs[0]); f != nil && f == recvField(info, m.recv, call.Args[0]) {
				store, isList = f, false
				count++
			}
		case *ast.CallExpr:
			sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "PushBack" || len(n.Args) != 1 {
				return true
			}
			if f := recvField(info, m.recv, sel.X); f != nil && isListType(f.Type()) {
				store, isList = f, true
				count++
			}
		}
		return true
	})
	if count != 1 {
		return nil, false
	}
	return store, isList
}

// recvField returns the field f when e is recv.f, or nil.
func recvField(info *types.Info, recv *types.Var, e ast.Expr) *types.Var {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok || info.Uses[id] != recv {
		return nil
	}
	v, ok := info.Uses[sel.Sel].(*types.Var)
	if !ok || !v.IsField() {
		return nil
	}
	return v
}

// guards reports whether m bounds or refuses: it compares integers (a
// length, a counter) other than in an emptiness test, re-slices or evicts
// from the store, waits (a channel operation, a select, a Wait), or calls a
// method of its type that does (depth 0 looks one method deep): a length
// check made inside a method of the type is a bound.
func guards(info *types.Info, m method, store *types.Var, siblings []method, depth int) bool {
	found := false
	ast.Inspect(m.decl.Body, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BinaryExpr:
			found = isIntComparison(info, n) && !isEmptinessTest(info, n)
		case *ast.SliceExpr:
			found = recvField(info, m.recv, n.X) == store && n.Low != nil
		case *ast.SendStmt, *ast.SelectStmt:
			found = true
		case *ast.UnaryExpr:
			found = n.Op == token.ARROW
		case *ast.CallExpr:
			sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr)
			if !ok {
				return true
			}
			switch sel.Sel.Name {
			case "Wait", "Remove", "Init":
				found = true
				return false
			}
			if depth > 0 {
				return true
			}
			callee := code.Callee(info, n)
			for _, s := range siblings {
				if callee != nil && s.fn == callee.Origin() && s.fn != m.fn && guards(info, s, store, siblings, depth+1) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// isIntComparison reports whether b compares two integers.
func isIntComparison(info *types.Info, b *ast.BinaryExpr) bool {
	switch b.Op {
	case token.LSS, token.LEQ, token.GTR, token.GEQ, token.EQL, token.NEQ:
	default:
		return false
	}
	tx := info.TypeOf(b.X)
	if tx == nil {
		return false // code that does not type-check
	}
	t, ok := tx.Underlying().(*types.Basic)
	return ok && t.Info()&types.IsInteger != 0
}

// isEmptinessTest reports whether b compares with 0 or 1: len(q) == 0,
// len(q) > 0. Such a test bounds nothing.
func isEmptinessTest(info *types.Info, b *ast.BinaryExpr) bool {
	for _, e := range []ast.Expr{b.X, b.Y} {
		if k, ok := consts.Int(info, e); ok && (k == 0 || k == 1) {
			return true
		}
	}
	return false
}

// drains reports whether m takes items from store's front, item by item (a
// front re-slice, q.items = q.items[1:], or, of a list, a Remove of its
// Front or a PopFront), or empties it whole after reading it (out :=
// q.items; q.items = nil).
func drains(info *types.Info, m method, store *types.Var, isList bool) (front, whole bool) {
	reads, resets, front := false, false, false
	ast.Inspect(m.decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			if len(n.Lhs) != 1 || len(n.Rhs) != 1 || recvField(info, m.recv, n.Lhs[0]) != store {
				break
			}
			switch rhs := ast.Unparen(n.Rhs[0]).(type) {
			case *ast.SliceExpr:
				if rhs.Low != nil && rhs.High == nil && recvField(info, m.recv, rhs.X) == store {
					front = true
				}
				if rhs.Low == nil && rhs.High != nil && isZero(info, rhs.High) {
					resets = true
				}
			case *ast.Ident:
				resets = resets || code.IsNil(info, rhs)
			}
			if !isList && !resets && !front {
				return true
			}
			return false // the left side is no read
		case *ast.CallExpr:
			if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok && isList && recvField(info, m.recv, sel.X) == store {
				switch sel.Sel.Name {
				case "PopFront":
					front = true
				case "Remove":
					front = front || len(n.Args) == 1 && callsFront(n.Args[0])
				}
			}
		case *ast.SelectorExpr:
			reads = reads || recvField(info, m.recv, n) == store
		}
		return true
	})
	return front, !front && resets && reads
}

// callsFront reports whether e is x.Front() or a variable: l.Remove(e)
// after e := l.Front() is the common spelling, and a list queue removes
// what it took from the front.
func callsFront(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr)
		return ok && sel.Sel.Name == "Front"
	case *ast.Ident:
		return true
	}
	return false
}

func isZero(info *types.Info, e ast.Expr) bool {
	k, ok := consts.Int(info, e)
	return ok && k == 0
}

// isListType reports whether t is container/list.List or a pointer to it.
func isListType(t types.Type) bool {
	return code.IsNamed(t, "container/list", "List")
}
