package edits

import (
	"go/ast"
	"go/token"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Two questions a fix that deletes source asks. DeleteLines deletes a piece
// of source only where it has its lines to itself, and fails otherwise: for
// declarations a fix leaves unused. DeleteStmt takes a statement's doc and
// trailing comments along, and always answers: for statements a fix moves.

// DeleteLines returns the edit that deletes the lines the source from pos to
// end fills alone (a trailing comment goes with it), from the start of its
// first line to the start of the line after it. It reports false when other
// code shares those lines.
func DeleteLines(pass *analysis.Pass, pos, end token.Pos) (analysis.TextEdit, bool) {
	tf := pass.Fset.File(pos)
	content, err := FileContent(pass, tf)
	if err != nil {
		return analysis.TextEdit{}, false
	}
	start := tf.LineStart(tf.Line(pos))
	if strings.TrimLeft(string(content[tf.Offset(start):tf.Offset(pos)]), " \t") != "" {
		return analysis.TextEdit{}, false
	}
	rest := strings.TrimLeft(string(content[tf.Offset(end):]), " \t")
	if rest != "" && rest[0] != '\n' && !strings.HasPrefix(rest, "//") {
		return analysis.TextEdit{}, false
	}
	line := tf.Line(end)
	if line == tf.LineCount() {
		return analysis.TextEdit{Pos: start, End: token.Pos(tf.Base() + tf.Size())}, true
	}
	return analysis.TextEdit{Pos: start, End: tf.LineStart(line + 1)}, true
}

// DropUnusedImport returns the edit that deletes the import spec of file:
// its line, or its whole declaration when it is the only import there, with
// a blank line that would otherwise double up.
func DropUnusedImport(pass *analysis.Pass, file *ast.File, spec *ast.ImportSpec) (analysis.TextEdit, bool) {
	var gen *ast.GenDecl
	for _, d := range file.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT && slices.Contains(g.Specs, ast.Spec(spec)) {
			gen = g
		}
	}
	if gen == nil {
		return analysis.TextEdit{}, false
	}
	node := ast.Node(spec)
	if len(gen.Specs) == 1 {
		node = gen
	}
	e, ok := DeleteLines(pass, node.Pos(), node.End())
	if !ok {
		return analysis.TextEdit{}, false
	}
	tf := pass.Fset.File(node.Pos())
	content, _ := FileContent(pass, tf)
	blankAt := func(line int) bool {
		if line < 1 || line > tf.LineCount() {
			return false
		}
		off := tf.Offset(tf.LineStart(line))
		for off < len(content) && (content[off] == ' ' || content[off] == '\t') {
			off++
		}
		return off >= len(content) || content[off] == '\n'
	}
	first, last := tf.Line(node.Pos()), tf.Line(node.End())
	switch {
	case node == gen && blankAt(last+1) && last+2 <= tf.LineCount():
		e.End = tf.LineStart(last + 2)
	case node == spec && blankAt(first-1) && (blankAt(last+1) || last+1 == tf.Line(gen.Rparen)):
		e.Pos = tf.LineStart(first - 1)
	case node == spec && first-1 == tf.Line(gen.Lparen) && blankAt(last+1) && last+2 <= tf.LineCount():
		e.End = tf.LineStart(last + 2)
	}
	return e, true
}

// DeleteFuncDecl returns the edit that deletes decl and its doc comment,
// with a blank line that would otherwise double up.
func DeleteFuncDecl(pass *analysis.Pass, decl *ast.FuncDecl) (analysis.TextEdit, bool) {
	start := decl.Pos()
	if decl.Doc != nil {
		start = decl.Doc.Pos()
	}
	e, ok := DeleteLines(pass, start, decl.End())
	if !ok {
		return analysis.TextEdit{}, false
	}
	tf := pass.Fset.File(start)
	content, _ := FileContent(pass, tf)
	end := tf.Offset(e.End)
	if end < len(content) && content[end] == '\n' {
		e.End++ // the blank line after it
	} else if first := tf.Line(start); first > 1 && end >= len(content) {
		// The last declaration of the file: the blank line before it.
		prev := tf.LineStart(first - 1)
		if off := tf.Offset(prev); off < len(content) && content[off] == '\n' {
			e.Pos = prev
		}
	}
	return e, true
}

// A StmtSpan is the source of a statement that a fix deletes or moves:
// [Start, End) the lines to delete, [TextStart, TextEnd) the text that moves
// (doc comment to trailing comment).
type StmtSpan struct {
	Start, End, TextStart, TextEnd token.Pos
}

// Delete returns the edit that deletes s.
func (s StmtSpan) Delete() analysis.TextEdit { return analysis.TextEdit{Pos: s.Start, End: s.End} }

// DeleteStmt returns the span of stmt in file with its doc comment and
// trailing comment, and one of the blank lines around it when it stands
// between two. Where other code shares its lines, the span is the
// statement's own source (Start is then stmt.Pos()).
func DeleteStmt(pass *analysis.Pass, file *ast.File, stmt ast.Node) StmtSpan {
	s := StmtSpan{Start: stmt.Pos(), End: stmt.End(), TextStart: stmt.Pos(), TextEnd: stmt.End()}
	tf := pass.Fset.File(stmt.Pos())
	if tf == nil {
		return s
	}
	content, err := FileContent(pass, tf)
	if err != nil {
		return s
	}
	line := tf.Line(stmt.Pos())
	for _, cg := range file.Comments {
		if tf.Line(cg.End()) == line-1 && cg.Pos() >= file.Pos() && onlyBlanksBefore(content, tf, cg.Pos()) {
			s.TextStart = cg.Pos()
			line = tf.Line(cg.Pos())
		}
	}
	if onlyBlanksBefore(content, tf, s.TextStart) {
		s.Start = tf.LineStart(tf.Line(s.TextStart))
	}
	off := tf.Offset(stmt.End())
	for off < len(content) && (content[off] == ' ' || content[off] == '\t') {
		off++
	}
	if strings.HasPrefix(string(content[off:]), "//") {
		for off < len(content) && content[off] != '\n' {
			off++
		}
		s.TextEnd = tf.Pos(off)
	}
	if off < len(content) && content[off] == '\n' {
		off++
		if opensGap(content, tf, s.Start) && isBlankLine(content, off) {
			off++
		}
		s.End = tf.Pos(off)
	} else {
		s.End = s.TextEnd
	}
	return s
}

// opensGap reports whether the line before the one starting at lineStart is
// blank or opens a block: a blank line after the deleted lines would then be
// a double blank line, or a blank line opening the block.
func opensGap(content []byte, tf *token.File, lineStart token.Pos) bool {
	line := tf.Line(lineStart)
	if line <= 1 {
		return false
	}
	prev := strings.TrimSpace(string(content[tf.Offset(tf.LineStart(line-1)):tf.Offset(lineStart)]))
	return prev == "" || strings.HasSuffix(prev, "{")
}

// onlyBlanksBefore reports whether only spaces and tabs precede pos on its
// line.
func onlyBlanksBefore(content []byte, tf *token.File, pos token.Pos) bool {
	start := tf.Offset(tf.LineStart(tf.Line(pos)))
	return strings.TrimSpace(string(content[start:tf.Offset(pos)])) == ""
}

// isBlankLine reports whether the line at offset off of content is empty.
func isBlankLine(content []byte, off int) bool {
	return off < len(content) && content[off] == '\n'
}
