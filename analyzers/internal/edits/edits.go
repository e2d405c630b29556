// Package edits builds the text edits of queuecheck's suggested fixes.
//
// Fixes must leave a package compiling and gofmt-clean, and they must keep the
// user's formatting elsewhere, so every builder here edits the smallest span it
// can and indents inserted lines like the statement they sit beside. One
// place decides each question a fix asks: which name a new declaration may
// take (Names), how an import is named where the fix uses it (AddImport),
// how built statements are laid out (FormatStmts), and how a fix's edits
// stay gofmt-clean next to what gofmt would realign (Finish).
package edits

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Fix returns a suggested fix with message msg made of edits.
func Fix(msg string, edits ...analysis.TextEdit) analysis.SuggestedFix {
	return analysis.SuggestedFix{Message: msg, TextEdits: edits}
}

// Replace replaces the source of node with text.
func Replace(node ast.Node, text string) analysis.TextEdit {
	return analysis.TextEdit{Pos: node.Pos(), End: node.End(), NewText: []byte(text)}
}

// Render returns the source of node as gofmt prints it.
func Render(fset *token.FileSet, node any) string {
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, node); err != nil {
		return ""
	}
	return buf.String()
}

// FileContent returns the content of the file tf, through pass.ReadFile where
// the driver provides it and from disk where it does not (Bazel's nogo leaves
// Pass.ReadFile nil).
func FileContent(pass *analysis.Pass, tf *token.File) ([]byte, error) {
	if pass.ReadFile != nil {
		return pass.ReadFile(tf.Name())
	}
	return os.ReadFile(tf.Name())
}

// Source returns the text of node exactly as the user wrote it.
func Source(pass *analysis.Pass, node ast.Node) string {
	tf := pass.Fset.File(node.Pos())
	if tf == nil {
		return Render(pass.Fset, node)
	}
	content, err := FileContent(pass, tf)
	if err != nil || tf.Offset(node.End()) > len(content) {
		return Render(pass.Fset, node)
	}
	return string(content[tf.Offset(node.Pos()):tf.Offset(node.End())])
}

// Indent returns the blanks that start the line holding pos.
func Indent(pass *analysis.Pass, pos token.Pos) string {
	tf := pass.Fset.File(pos)
	if tf == nil {
		return ""
	}
	content, err := FileContent(pass, tf)
	if err != nil {
		return ""
	}
	start := tf.Offset(tf.LineStart(tf.Line(pos)))
	end := start
	for end < len(content) && (content[end] == ' ' || content[end] == '\t') {
		end++
	}
	return string(content[start:end])
}

// indentLines prefixes every line of text after the first with indent, leaving
// blank lines empty so the result stays gofmt-clean.
func indentLines(text, indent string) string {
	lines := strings.Split(text, "\n")
	for i := 1; i < len(lines); i++ {
		if lines[i] != "" {
			lines[i] = indent + lines[i]
		}
	}
	return strings.Join(lines, "\n")
}

// InsertBefore inserts the statements text (lines separated by "\n", without
// indentation) on lines of their own before stmt, indented like stmt.
func InsertBefore(pass *analysis.Pass, stmt ast.Node, text string) analysis.TextEdit {
	indent := Indent(pass, stmt.Pos())
	return analysis.TextEdit{Pos: stmt.Pos(), End: stmt.Pos(), NewText: []byte(indentLines(text, indent) + "\n" + indent)}
}

// InsertAfter inserts the statements text on lines of their own after stmt,
// indented like stmt, and after the comment that ends stmt's line, which
// stays with stmt.
func InsertAfter(pass *analysis.Pass, stmt ast.Node, text string) analysis.TextEdit {
	indent := Indent(pass, stmt.Pos())
	at := stmt.End()
	if tf := pass.Fset.File(at); tf != nil {
		if content, err := FileContent(pass, tf); err == nil {
			off := tf.Offset(at)
			rest := content[off:]
			if i := bytes.IndexByte(rest, '\n'); i >= 0 && bytes.HasPrefix(bytes.TrimSpace(rest[:i]), []byte("//")) {
				at = tf.Pos(off + i)
			}
		}
	}
	return analysis.TextEdit{Pos: at, End: at, NewText: []byte("\n" + indent + indentLines(text, indent))}
}

// IndentBlock indents every non-blank line of text by one more tab than the
// line holding pos, for text placed inside a block that starts on that line.
func IndentBlock(pass *analysis.Pass, pos token.Pos, text string) string {
	return indentLines(text, Indent(pass, pos)+"\t")
}

// FormatStmts lays out the statements text (lines separated by "\n",
// without indentation) as gofmt lays them out in a function body, with each
// line after the first indented by indent, for text that goes where a
// statement indented so starts. Fixes move expressions and build statements
// from parts, and the spacing gofmt gives an expression depends on where it
// sits. The continuation lines of a string literal stay as they are, since
// indenting them would change the string. It reports false when text does
// not parse as statements.
func FormatStmts(text, indent string) (string, bool) {
	const head, tail = "package p\n\nfunc _() {\n", "\n}\n"
	out, err := format.Source([]byte(head + text + tail))
	if err != nil || !bytes.HasPrefix(out, []byte(head)) || !bytes.HasSuffix(out, []byte(tail)) {
		return "", false
	}
	inString := stringLines(out)
	firstLine := strings.Count(head, "\n") + 1
	lines := strings.Split(string(out[len(head):len(out)-len(tail)]), "\n")
	for i, l := range lines {
		if inString[firstLine+i] {
			continue
		}
		l = strings.TrimPrefix(l, "\t")
		if i > 0 && l != "" {
			l = indent + l
		}
		lines[i] = l
	}
	return strings.Join(lines, "\n"), true
}

// stringLines returns the lines of the Go file src that continue a string
// literal begun on an earlier line.
func stringLines(src []byte) map[int]bool {
	lines := make(map[int]bool)
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return lines
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			for l := fset.Position(lit.Pos()).Line + 1; l <= fset.Position(lit.End()).Line; l++ {
				lines[l] = true
			}
		}
		return true
	})
	return lines
}

// InsertDeclBefore inserts the top-level declaration text before decl (and
// before decl's doc comment), followed by a blank line.
func InsertDeclBefore(decl ast.Decl, text string) analysis.TextEdit {
	pos := decl.Pos()
	switch d := decl.(type) {
	case *ast.FuncDecl:
		if d.Doc != nil {
			pos = d.Doc.Pos()
		}
	case *ast.GenDecl:
		if d.Doc != nil {
			pos = d.Doc.Pos()
		}
	}
	return analysis.TextEdit{Pos: pos, End: pos, NewText: []byte(text + "\n\n")}
}

// EnclosingDecl returns the top-level declaration of file that contains pos.
func EnclosingDecl(file *ast.File, pos token.Pos) ast.Decl {
	for _, d := range file.Decls {
		if d.Pos() <= pos && pos < d.End() {
			return d
		}
	}
	return nil
}

// EnclosingFile returns the file of files that contains pos.
func EnclosingFile(files []*ast.File, pos token.Pos) *ast.File {
	for _, f := range files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return f
		}
	}
	return nil
}

// ImportName returns the name by which file refers to the package with the
// given import path, and whether file imports it under a usable name.
func ImportName(file *ast.File, path string) (string, bool) {
	for _, imp := range file.Imports {
		p, err := strconv.Unquote(imp.Path.Value)
		if err != nil || p != path {
			continue
		}
		if imp.Name == nil {
			return path[strings.LastIndex(path, "/")+1:], true
		}
		if imp.Name.Name != "_" && imp.Name.Name != "." {
			return imp.Name.Name, true
		}
	}
	return "", false
}

// AddImport returns the name by which file can refer to the standard package
// path at the positions uses and, when file does not import it yet, the edit
// that adds the import. It reports false when no name can: a declaration in
// scope at a use shadows the import's name or, for a new import, the
// package declares the name or the file imports another package under it.
// Then the caller leaves the fix out: a renamed standard import would
// surprise readers more than a finding without a fix.
//
// The new import joins the first import block in sorted position, so gofmt
// leaves it where it is. A caller that already made the same edit for another
// diagnostic gets an identical edit back, which drivers merge.
func AddImport(pass *analysis.Pass, file *ast.File, path string, uses ...token.Pos) (string, []analysis.TextEdit, bool) {
	if name, ok := ImportName(file, path); ok {
		if !importedAt(pass, name, path, uses) {
			return "", nil, false
		}
		return name, nil, true
	}
	name := path[strings.LastIndex(path, "/")+1:]
	if types.Universe.Lookup(name) != nil || pass.Pkg.Scope().Lookup(name) != nil {
		return "", nil, false
	}
	if fs := pass.TypesInfo.Scopes[file]; fs != nil && fs.Lookup(name) != nil {
		return "", nil, false
	}
	if !importedAt(pass, name, path, uses) {
		return "", nil, false
	}
	return name, []analysis.TextEdit{importEdit(pass, file, path)}, true
}

// importedAt reports whether name, at each of uses, refers to an import of
// path or to nothing yet.
func importedAt(pass *analysis.Pass, name, path string, uses []token.Pos) bool {
	for _, pos := range uses {
		scope := pass.Pkg.Scope().Innermost(pos)
		if scope == nil {
			continue
		}
		if _, obj := scope.LookupParent(name, pos); obj != nil {
			if pn, ok := obj.(*types.PkgName); !ok || pn.Imported().Path() != path {
				return false
			}
		}
	}
	return true
}

// importEdit returns the edit that adds an import of path to file.
func importEdit(pass *analysis.Pass, file *ast.File, path string) analysis.TextEdit {
	quoted := strconv.Quote(path)
	for _, decl := range file.Decls {
		gen, ok := decl.(*ast.GenDecl)
		if !ok || gen.Tok != token.IMPORT {
			continue
		}
		if !gen.Lparen.IsValid() {
			// import "x": add a second single import below it.
			return analysis.TextEdit{Pos: gen.End(), End: gen.End(), NewText: []byte("\nimport " + quoted)}
		}
		// Insert into the first group (specs on consecutive lines) in sorted position.
		specs := gen.Specs
		group := specs[:0:0]
		for i, s := range specs {
			if i > 0 && pass.Fset.Position(s.Pos()).Line > pass.Fset.Position(specs[i-1].End()).Line+1 {
				break
			}
			group = append(group, s)
		}
		idx, _ := slices.BinarySearchFunc(group, path, func(s ast.Spec, p string) int {
			sp, _ := strconv.Unquote(s.(*ast.ImportSpec).Path.Value)
			return strings.Compare(sp, p)
		})
		if len(group) == 0 {
			return analysis.TextEdit{Pos: gen.Lparen + 1, End: gen.Lparen + 1, NewText: []byte("\n\t" + quoted)}
		}
		// A whole line, inserted at the start of a line: the edit gofmt's
		// line hunks make too, so that the same import added by a fix whose
		// edits Finish turned into line hunks still merges with it.
		if idx < len(group) {
			at := group[idx].Pos()
			if d := group[idx].(*ast.ImportSpec).Doc; d != nil {
				at = d.Pos()
			}
			if start, ok := lineStart(pass, at); ok {
				return analysis.TextEdit{Pos: start, End: start, NewText: []byte(Indent(pass, at) + quoted + "\n")}
			}
			return analysis.TextEdit{Pos: at, End: at, NewText: []byte(quoted + "\n" + Indent(pass, at))}
		}
		last := group[len(group)-1]
		end := last.End()
		if c := last.(*ast.ImportSpec).Comment; c != nil {
			end = c.End()
		}
		if next, ok := nextLineStart(pass, end); ok {
			return analysis.TextEdit{Pos: next, End: next, NewText: []byte(Indent(pass, last.Pos()) + quoted + "\n")}
		}
		return analysis.TextEdit{Pos: end, End: end, NewText: []byte("\n" + Indent(pass, last.Pos()) + quoted)}
	}
	// No imports yet: add one after the package clause.
	return analysis.TextEdit{Pos: file.Name.End(), End: file.Name.End(), NewText: []byte("\n\nimport " + quoted)}
}

// lineStart returns the start of the line of pos, when only blanks precede
// pos on it.
func lineStart(pass *analysis.Pass, pos token.Pos) (token.Pos, bool) {
	tf := pass.Fset.File(pos)
	if tf == nil {
		return token.NoPos, false
	}
	start := tf.LineStart(tf.Line(pos))
	return start, int(pos-start) == len(Indent(pass, pos))
}

// nextLineStart returns the start of the line after the one pos ends, when
// nothing but the newline follows pos on its line.
func nextLineStart(pass *analysis.Pass, pos token.Pos) (token.Pos, bool) {
	tf := pass.Fset.File(pos)
	if tf == nil {
		return token.NoPos, false
	}
	line := tf.Line(pos)
	if line >= tf.LineCount() {
		return token.NoPos, false
	}
	next := tf.LineStart(line + 1)
	return next, next == pos+1
}

// Apply applies edits, all in the file tf, to its content src. Identical
// edits count once (two findings may add the same import); any other overlap,
// including two different insertions at one point, is an error, since their
// order would be undefined.
func Apply(tf *token.File, src []byte, es []analysis.TextEdit) ([]byte, error) {
	out, _, err := apply(tf, src, es)
	return out, err
}

// A placed edit is an edit as offsets of the source, with the offset at
// which its text starts in the edited file.
type placed struct {
	start, end int
	text       string
	at         int
}

// apply is Apply, which also returns the distinct edits in order, placed.
func apply(tf *token.File, src []byte, es []analysis.TextEdit) ([]byte, []placed, error) {
	var spans []placed
	for _, e := range es {
		end := e.End
		if !end.IsValid() {
			end = e.Pos
		}
		spans = append(spans, placed{start: tf.Offset(e.Pos), end: tf.Offset(end), text: string(e.NewText)})
	}
	slices.SortStableFunc(spans, func(a, b placed) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return a.end - b.end
	})
	spans = slices.Compact(spans)
	var out bytes.Buffer
	last := 0
	for i, s := range spans {
		if s.start < last || (i > 0 && s.start == spans[i-1].start && s.start == s.end && spans[i-1].start == spans[i-1].end) {
			return nil, nil, fmt.Errorf("overlapping edits at offset %d", s.start)
		}
		if s.end > len(src) {
			return nil, nil, fmt.Errorf("edit [%d,%d) past the end of the file", s.start, s.end)
		}
		out.Write(src[last:s.start])
		spans[i].at = out.Len()
		out.WriteString(s.text)
		last = s.end
	}
	out.Write(src[last:])
	return out.Bytes(), spans, nil
}
