package waittiming

import (
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"strings"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/admission"
	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/knowledge"
)

// A measurement from the top of an HTTP handler to its end is the latency
// users see: it should include the queueing. So should a figure named as a
// total. The check still reports the wait such a figure hides, since no
// other figure shows it, but its fix keeps the total as it is and records
// the wait beside it.

// isTotal reports whether m is the latency users see: it spans the whole
// body of its function, and the function is a request handler or the
// figure is named a total.
func (c *checker) isTotal(m *measurement) bool {
	fn := code.EnclosingFunc(m.startStmt)
	if !fn.Valid() || fn != m.fn || !c.spansBody(m, fn) {
		return false
	}
	return isHandler(c.pass.TypesInfo, fn) || namesTotal(c.pass.TypesInfo, m)
}

// spansBody reports whether m starts before any work of its function and
// ends at its end: in a defer, or in a statement followed only by a return.
func (c *checker) spansBody(m *measurement, fn inspector.Cursor) bool {
	body := code.FuncBody(fn.Node())
	var top ast.Stmt // nil: the start precedes every statement, a parameter's
	if m.form != formParam {
		if top = topStmt(m.startStmt, body); top == nil {
			return false
		}
	}
	for _, st := range body.List {
		if st == top {
			break
		}
		if c.hasWait(fn, st) {
			return false // the figure starts after a wait: it is not the whole request
		}
	}
	if m.deferStmt.Valid() {
		return true
	}
	end := topStmt(m.end, body)
	for i, st := range body.List {
		if st != end {
			continue
		}
		for _, after := range body.List[i+1:] {
			ret, ok := after.(*ast.ReturnStmt)
			if !ok || c.hasWork(ret) {
				return false
			}
		}
		return true
	}
	return false
}

// topStmt returns the statement of body's own list that holds cur.
func topStmt(cur inspector.Cursor, body *ast.BlockStmt) ast.Stmt {
	for p := cur; p.Valid(); p = p.Parent() {
		if st, ok := p.Node().(ast.Stmt); ok && p.Parent().Node() == body {
			return st
		}
	}
	return nil
}

// hasWait reports whether the statement st of the function at fn holds an
// admission wait.
func (c *checker) hasWait(fn inspector.Cursor, st ast.Stmt) bool {
	cur, ok := fn.FindNode(st)
	if !ok {
		return true
	}
	found := false
	cur.Inspect([]ast.Node{(*ast.CallExpr)(nil), (*ast.SendStmt)(nil), (*ast.UnaryExpr)(nil), (*ast.SelectStmt)(nil), (*ast.FuncLit)(nil)}, func(n inspector.Cursor) bool {
		if _, ok := n.Node().(*ast.FuncLit); ok || found {
			return false
		}
		if _, ok := c.adm.At(n); ok {
			found = true
		}
		return !found
	})
	return found
}

// hasWork reports whether a statement calls anything that does work.
func (c *checker) hasWork(n ast.Node) bool {
	return code.AnyNode(n, code.IsFuncLit, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		return ok && c.isWorkCall(call, admission.Wait{})
	})
}

// isHandler reports whether the function at fn serves a request: an
// http.Handler's ServeHTTP or a function taking an http.ResponseWriter and
// an *http.Request, or a gRPC interceptor (it is handed the handler).
func isHandler(info *types.Info, fn inspector.Cursor) bool {
	sig := code.FuncSignature(info, fn.Node())
	if sig == nil {
		return false
	}
	writer, request := false, false
	for p := range sig.Params().Variables() {
		t := p.Type()
		switch {
		case code.IsNamed(t, "net/http", "ResponseWriter"):
			writer = true
		case code.IsNamed(t, "net/http", "Request"):
			request = true
		case isGRPCHandler(t):
			return true
		}
	}
	return writer && request || isRPCMethod(fn, sig)
}

// isRPCMethod reports whether fn is a method in net/rpc's shape — an
// exported method of two parameters, the second a pointer (the reply), that
// returns only an error — which an RPC server calls per request (nomad's
// and consul's endpoints, (a *Allocations) GarbageCollect(args, reply)).
func isRPCMethod(fn inspector.Cursor, sig *types.Signature) bool {
	fd, ok := fn.Node().(*ast.FuncDecl)
	if !ok || fd.Recv == nil || !fd.Name.IsExported() {
		return false
	}
	params, results := sig.Params(), sig.Results()
	if params.Len() != 2 || results.Len() != 1 || !code.IsError(results.At(0).Type()) {
		return false
	}
	_, reply := types.Unalias(params.At(1).Type()).(*types.Pointer)
	return reply
}

// isGRPCHandler reports whether t is grpc.UnaryHandler or StreamHandler.
func isGRPCHandler(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && knowledge.InterceptorHandlerTypes.HasType(n.Obj().Pkg().Path(), n.Obj().Name())
}

var (
	promTotal   = regexp.MustCompile(`_total([^A-Za-z0-9_]|$)`)
	unseparated = strings.NewReplacer("_", "", "-", "", " ", "")
)

// namesTotal reports whether the statement that records m names its figure
// a total: total, e2e, end to end, overall.
func namesTotal(info *types.Info, m *measurement) bool {
	return recordSays(info, m, knowledge.TotalWords)
}

// recordSays reports whether an identifier or a string of the statement
// that records m contains one of words, compared in lower case without
// separators (end_to_end says endtoend). A Prometheus counter's _total
// suffix says counter, not the whole of something, and does not count.
func recordSays(info *types.Info, m *measurement, words *knowledge.List) bool {
	return recordSaysBut(info, m, words, nil)
}

// recordSaysBut is recordSays, looking into no node for which skip
// reports true (nil: none).
func recordSaysBut(info *types.Info, m *measurement, words *knowledge.List, skip func(ast.Node) bool) bool {
	stmt := m.deferStmt
	if !stmt.Valid() {
		stmt = code.StmtOf(m.end)
	}
	for _, st := range recordStmts(info, stmt, m.end) {
		if recordStmtSays(st, words, skip) {
			return true
		}
	}
	return false
}

// recordStmts returns the statement stmt that holds the end of a
// measurement and, when it only keeps the duration in a local variable
// (d := time.Since(start)), the statements after it in its block that use
// the variable: where the figure is recorded (rec(ctx, d, attempts)).
func recordStmts(info *types.Info, stmt, end inspector.Cursor) []ast.Node {
	out := []ast.Node{stmt.Node()}
	as, ok := stmt.Node().(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || ast.Unparen(as.Rhs[0]) != end.Node() {
		return out
	}
	v := localVar(info, as.Lhs[0])
	if v == nil {
		return out
	}
	for next, ok := stmt.NextSibling(); ok; next, ok = next.NextSibling() {
		if usesVar(info, next.Node(), v) {
			out = append(out, next.Node())
		}
	}
	return out
}

// recordStmtSays reports whether an identifier or a string of st says one
// of words.
func recordStmtSays(st ast.Node, words *knowledge.List, skip func(ast.Node) bool) bool {
	return code.AnyNode(st, skip, func(n ast.Node) bool {
		var text string
		switch n := n.(type) {
		case *ast.Ident:
			text = n.Name
		case *ast.BasicLit:
			if n.Kind == token.STRING {
				text = n.Value
				if strings.Contains(text, "_total") {
					text = promTotal.ReplaceAllString(text, "$1")
				}
			}
		}
		text = strings.ToLower(unseparated.Replace(text))
		return words.Match(text)
	})
}
