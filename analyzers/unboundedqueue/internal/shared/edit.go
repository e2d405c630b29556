package shared

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
)

// FileOf returns the file containing pos.
func (c *Pkg) FileOf(pos token.Pos) *ast.File {
	return edits.EnclosingFile(c.Pass.Files, pos)
}

// ErrorType is the predeclared error type.
var ErrorType = types.Universe.Lookup("error").Type()

// JumpedOver reports whether a variable declared at pos, in the function
// around cur, would be jumped over by a goto.
func (c *Pkg) JumpedOver(cur inspector.Cursor, pos token.Pos) bool {
	return code.JumpedOver(c.Pass.TypesInfo, code.FuncBody(code.EnclosingFunc(cur).Node()), pos)
}
