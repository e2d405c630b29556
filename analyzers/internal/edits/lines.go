package edits

import (
	"go/ast"
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// InsertLineAfterBrace inserts stmt on a line of its own as the first line of
// the block whose opening brace is at lbrace, indented one level deeper than
// the line holding the brace. It inserts at the start of the next line rather
// than after the brace, so that a comment after the brace stays where it is
// and an edit of the block's first statement (which starts after the
// indentation of that line) cannot collide with it. It reports false when
// the block's content starts on the brace's line, or a comment there runs on
// to the next.
func InsertLineAfterBrace(pass *analysis.Pass, block *ast.BlockStmt, stmt string) (analysis.TextEdit, bool) {
	tf := pass.Fset.File(block.Lbrace)
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
	if file := EnclosingFile(pass.Files, block.Lbrace); file != nil {
		for _, cg := range file.Comments {
			if cg.Pos() > block.Lbrace && tf.Line(cg.Pos()) == line && tf.Line(cg.End()) > line {
				return analysis.TextEdit{}, false
			}
		}
	}
	at := tf.LineStart(line + 1)
	indent := Indent(pass, block.Lbrace) + "\t"
	return analysis.TextEdit{Pos: at, End: at, NewText: []byte(indent + stmt + "\n")}, true
}

// InsertLinesBefore inserts text (lines without indentation) on lines of its
// own before the line holding stmt, indented like indentPos's line. Used where
// stmt may carry a label that gofmt outdents.
func InsertLinesBefore(pass *analysis.Pass, stmt ast.Node, indentPos token.Pos, text string) analysis.TextEdit {
	tf := pass.Fset.File(stmt.Pos())
	at := tf.LineStart(tf.Line(stmt.Pos()))
	return analysis.TextEdit{Pos: at, End: at, NewText: []byte(indentedLines(text, Indent(pass, indentPos)))}
}

// InsertLinesAfter inserts text (lines without indentation) on lines of
// their own after the line where stmt ends, indented like stmt, so that a
// comment at the end of that line stays with stmt. The caller makes sure no
// other statement follows stmt on its line (EndsLineWithCode).
func InsertLinesAfter(pass *analysis.Pass, stmt ast.Node, text string) analysis.TextEdit {
	tf := pass.Fset.File(stmt.End())
	line := tf.Line(stmt.End())
	at := token.Pos(tf.Base() + tf.Size())
	if line < tf.LineCount() {
		at = tf.LineStart(line + 1)
	}
	return analysis.TextEdit{Pos: at, End: at, NewText: []byte(indentedLines(text, Indent(pass, stmt.Pos())))}
}

// indentedLines returns the lines of text, each indented by indent (blank
// ones left empty) and ended by a newline.
func indentedLines(text, indent string) string {
	s := indentLines(text, indent) + "\n"
	if text != "" && !strings.HasPrefix(text, "\n") {
		s = indent + s
	}
	return s
}

// StartsLine reports whether pos is the first non-blank character of its
// line, so that a statement can be inserted on a line of its own before it.
func StartsLine(pass *analysis.Pass, pos token.Pos) bool {
	tf := pass.Fset.File(pos)
	if tf == nil {
		return false
	}
	content, err := FileContent(pass, tf)
	if err != nil {
		return false
	}
	start, off := tf.Offset(tf.LineStart(tf.Line(pos))), tf.Offset(pos)
	if off > len(content) {
		return false
	}
	return strings.TrimLeft(string(content[start:off]), " \t") == ""
}

// EndsLineWithCode reports whether another statement follows n on the line
// where n ends, so that a line inserted after n would not come right after it.
func EndsLineWithCode(pass *analysis.Pass, n ast.Node) bool {
	tf := pass.Fset.File(n.End())
	content, err := FileContent(pass, tf)
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
