package shared

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
)

// FileOf returns the file containing pos.
func (c *Pkg) FileOf(pos token.Pos) *ast.File {
	return edits.EnclosingFile(c.Pass.Files, pos)
}

// InsertLineAfterBrace inserts stmt on a line of its own as the first line of
// the block whose opening brace is at lbrace, indented one level deeper than
// the line holding the brace. It inserts at the start of the next line rather
// than after the brace, so that a comment after the brace stays where it is
// and an edit of the block's first statement (which starts after the
// indentation of that line) cannot collide with it. It reports false when
// the block's content starts on the brace's line, or a comment there runs on
// to the next.
func (c *Pkg) InsertLineAfterBrace(block *ast.BlockStmt, stmt string) (analysis.TextEdit, bool) {
	tf := c.Pass.Fset.File(block.Lbrace)
	line := tf.Line(block.Lbrace)
	if line >= tf.LineCount() {
		return analysis.TextEdit{}, false
	}
	next := block.Rbrace
	if len(block.List) > 0 {
		next = block.List[0].Pos()
	}
	if tf.Line(next) == line {
		return analysis.TextEdit{}, false
	}
	if file := c.FileOf(block.Lbrace); file != nil {
		for _, cg := range file.Comments {
			if cg.Pos() > block.Lbrace && tf.Line(cg.Pos()) == line && tf.Line(cg.End()) > line {
				return analysis.TextEdit{}, false
			}
		}
	}
	at := tf.LineStart(line + 1)
	indent := edits.Indent(c.Pass, block.Lbrace) + "\t"
	return analysis.TextEdit{Pos: at, End: at, NewText: []byte(indent + stmt + "\n")}, true
}

// InsertLinesBefore inserts text (lines without indentation) on lines of its
// own before the line holding stmt, indented like indentPos's line. Used where
// stmt may carry a label that gofmt outdents.
func (c *Pkg) InsertLinesBefore(stmt ast.Node, indentPos token.Pos, text string) analysis.TextEdit {
	tf := c.Pass.Fset.File(stmt.Pos())
	at := tf.LineStart(tf.Line(stmt.Pos()))
	return analysis.TextEdit{Pos: at, End: at, NewText: []byte(indentedLines(text, edits.Indent(c.Pass, indentPos)))}
}

// InsertLinesAfter inserts text (lines without indentation) on lines of
// their own after the line where stmt ends, indented like stmt, so that a
// comment at the end of that line stays with stmt. The caller makes sure no
// other statement follows stmt on its line (endsLineWithCode).
func (c *Pkg) InsertLinesAfter(stmt ast.Node, text string) analysis.TextEdit {
	tf := c.Pass.Fset.File(stmt.End())
	line := tf.Line(stmt.End())
	at := token.Pos(tf.Base() + tf.Size())
	if line < tf.LineCount() {
		at = tf.LineStart(line + 1)
	}
	return analysis.TextEdit{Pos: at, End: at, NewText: []byte(indentedLines(text, edits.Indent(c.Pass, stmt.Pos())))}
}

// indentedLines returns the lines of text, each indented by indent (blank
// ones left empty) and ended by a newline.
func indentedLines(text, indent string) string {
	var b strings.Builder
	for line := range strings.SplitSeq(text, "\n") {
		if line != "" {
			b.WriteString(indent + line)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// ErrorType is the predeclared error type.
var ErrorType = types.Universe.Lookup("error").Type()

// EndsLineWithCode reports whether another statement follows n on the line
// where n ends, so that a line inserted after n would not come right after it.
func (c *Pkg) EndsLineWithCode(n ast.Node) bool {
	tf := c.Pass.Fset.File(n.End())
	content, err := edits.FileContent(c.Pass, tf)
	if err != nil {
		return true
	}
	off := tf.Offset(n.End())
	rest := string(content[off:])
	if i := strings.IndexByte(rest, '\n'); i >= 0 {
		rest = rest[:i]
	}
	rest = strings.TrimSpace(rest)
	return rest != "" && !strings.HasPrefix(rest, "//")
}

// JumpedOver reports whether a variable declared at pos, in the function
// around cur, would be jumped over by a goto.
func (c *Pkg) JumpedOver(cur inspector.Cursor, pos token.Pos) bool {
	return code.JumpedOver(c.Pass.TypesInfo, code.FuncBody(code.EnclosingFunc(cur).Node()), pos)
}
