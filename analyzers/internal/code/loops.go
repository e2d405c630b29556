package code

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// A counted loop: for i := from; i < to; i++ (or i <= to), the counter a
// variable (not a field) its init declares or sets and its condition
// compares. A loop of
// attempts is usually one (for attempt := 0; attempt <= maxRetries;
// attempt++), and two questions about it turn on the bounds: whether the
// body runs at least once, and whether the number of rounds is fixed.

// CountsUp reports whether the for statement fs counts a variable from the
// constant its init sets up to its condition's bound with < or <=, and
// returns the start and, when it is a constant, the bound (nil otherwise),
// with the comparison.
func CountsUp(info *types.Info, fs *ast.ForStmt) (from, to constant.Value, op token.Token, ok bool) {
	init, isAssign := fs.Init.(*ast.AssignStmt)
	cond, isBin := ast.Unparen(fs.Cond).(*ast.BinaryExpr)
	if !isAssign || !isBin || len(init.Lhs) != 1 || len(init.Rhs) != 1 || (cond.Op != token.LSS && cond.Op != token.LEQ) {
		return nil, nil, 0, false
	}
	counter, isIdent := ast.Unparen(init.Lhs[0]).(*ast.Ident)
	if !isIdent {
		return nil, nil, 0, false // a field counts for more than this loop
	}
	from = info.Types[init.Rhs[0]].Value
	v := Var(info, counter)
	if from == nil || v == nil || Var(info, cond.X) != v {
		return nil, nil, 0, false
	}
	return from, info.Types[cond.Y].Value, cond.Op, true
}

// CountsToConst reports whether fs counts from a constant up to a larger
// constant: a fixed number of rounds, at least one (for i := 0; i < 3; i++).
func CountsToConst(info *types.Info, fs *ast.ForStmt) bool {
	from, to, op, ok := CountsUp(info, fs)
	if !ok || to == nil {
		return false
	}
	return constant.Compare(from, op, to)
}
