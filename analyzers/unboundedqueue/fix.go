package unboundedqueue

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"

	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
)

// A finding is one diagnostic waiting for its fix to be completed with the
// package-level declarations it needs.
type finding struct {
	diag  analysis.Diagnostic // without SuggestedFixes
	msg   string              // the fix's message
	edits []analysis.TextEdit
	file  *ast.File
	// anchor is the top-level declaration before which the fix declares its
	// constants and sentinel errors, or nil.
	anchor ast.Decl
}

// A declaration is one top-level declaration a fix adds.
type declaration struct {
	text   string
	errors bool // uses package errors
}

// reportAll completes every finding's fix and reports it.
//
// Two findings whose declarations go before the same top-level declaration
// get the same edit there, holding the declarations of both: drivers merge
// identical edits, while two different insertions at one position would
// collide. A fix applied alone then declares a constant it does not use,
// which compiles.
func (c *checker) reportAll() {
	for _, f := range c.findings {
		if len(f.edits) == 0 {
			c.rep.Report(f.diag) // no safe fix: the message says what to do by hand
			continue
		}
		es := f.edits
		if decls := c.declared[f.anchor]; f.anchor != nil && len(decls) > 0 {
			var texts []string
			needErrors := false
			for _, d := range decls {
				texts = append(texts, d.text)
				needErrors = needErrors || d.errors
			}
			es = append(es, edits.InsertDeclBefore(f.anchor, strings.Join(texts, "\n\n")))
			if needErrors {
				_, imp, _ := edits.AddImport(c.pass, f.file, "errors") // it could when the sentinel was declared
				es = append(es, imp...)
			}
		}
		if es, ok := edits.Finish(c.pass, es); ok {
			f.diag.SuggestedFixes = []analysis.SuggestedFix{edits.Fix(f.msg, es...)}
		} // else edits that collide or do not parse: the finding goes without a fix
		c.rep.Report(f.diag)
	}
}

// fileOf returns the file containing pos.
func (c *checker) fileOf(pos token.Pos) *ast.File {
	return edits.EnclosingFile(c.pass.Files, pos)
}

// insertLineAfterBrace inserts stmt on a line of its own as the first line of
// the block whose opening brace is at lbrace, indented one level deeper than
// the line holding the brace. It inserts at the start of the next line rather
// than after the brace, so that a comment after the brace stays where it is
// and an edit of the block's first statement (which starts after the
// indentation of that line) cannot collide with it. It reports false when
// the block's content starts on the brace's line, or a comment there runs on
// to the next.
func (c *checker) insertLineAfterBrace(block *ast.BlockStmt, stmt string) (analysis.TextEdit, bool) {
	tf := c.pass.Fset.File(block.Lbrace)
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
	if file := c.fileOf(block.Lbrace); file != nil {
		for _, cg := range file.Comments {
			if cg.Pos() > block.Lbrace && tf.Line(cg.Pos()) == line && tf.Line(cg.End()) > line {
				return analysis.TextEdit{}, false
			}
		}
	}
	at := tf.LineStart(line + 1)
	indent := edits.Indent(c.pass, block.Lbrace) + "\t"
	return analysis.TextEdit{Pos: at, End: at, NewText: []byte(indent + stmt + "\n")}, true
}

// insertLinesBefore inserts text (lines without indentation) on lines of its
// own before the line holding stmt, indented like indentPos's line. Used where
// stmt may carry a label that gofmt outdents.
func (c *checker) insertLinesBefore(stmt ast.Node, indentPos token.Pos, text string) analysis.TextEdit {
	tf := c.pass.Fset.File(stmt.Pos())
	at := tf.LineStart(tf.Line(stmt.Pos()))
	return analysis.TextEdit{Pos: at, End: at, NewText: []byte(indentedLines(text, edits.Indent(c.pass, indentPos)))}
}

// insertLinesAfter inserts text (lines without indentation) on lines of
// their own after the line where stmt ends, indented like stmt, so that a
// comment at the end of that line stays with stmt. The caller makes sure no
// other statement follows stmt on its line (endsLineWithCode).
func (c *checker) insertLinesAfter(stmt ast.Node, text string) analysis.TextEdit {
	tf := c.pass.Fset.File(stmt.End())
	line := tf.Line(stmt.End())
	at := token.Pos(tf.Base() + tf.Size())
	if line < tf.LineCount() {
		at = tf.LineStart(line + 1)
	}
	return analysis.TextEdit{Pos: at, End: at, NewText: []byte(indentedLines(text, edits.Indent(c.pass, stmt.Pos())))}
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

// A qualifier names packages the way file imports them; ok turns false when a
// type refers to a package file does not import.
type qualifier struct {
	pkg   *types.Package
	names map[string]string
	ok    bool
}

func newQualifier(pkg *types.Package, file *ast.File) *qualifier {
	q := &qualifier{pkg: pkg, names: make(map[string]string), ok: true}
	for _, imp := range file.Imports {
		path, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue
		}
		if name, ok := edits.ImportName(file, path); ok {
			q.names[path] = name
		}
	}
	return q
}

func (q *qualifier) qualify(p *types.Package) string {
	if p == q.pkg {
		return ""
	}
	if name, ok := q.names[p.Path()]; ok {
		return name
	}
	q.ok = false
	return p.Name()
}

// zeroValue returns the zero value of t as Go source, or false when it cannot
// be written in file.
func (q *qualifier) zeroValue(t types.Type) (string, bool) {
	var s string
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsBoolean != 0:
			s = "false"
		case u.Info()&types.IsString != 0:
			s = `""`
		case u.Info()&types.IsNumeric != 0:
			s = "0"
		case u.Kind() == types.UnsafePointer:
			s = "nil"
		default:
			return "", false
		}
	case *types.Pointer, *types.Slice, *types.Map, *types.Chan, *types.Signature:
		s = "nil"
	case *types.Interface:
		if _, ok := types.Unalias(t).(*types.TypeParam); ok {
			s = "*new(" + types.TypeString(t, q.qualify) + ")"
		} else {
			s = "nil"
		}
	case *types.Struct, *types.Array:
		s = types.TypeString(t, q.qualify) + "{}"
	default:
		return "", false
	}
	return s, q.ok
}

var errorType = types.Universe.Lookup("error").Type()

// rejectReturn returns the return statement that rejects an item in the
// function with signature sig, returning errName as its error, or false when
// the function does not end its results with an error or a zero value cannot
// be written.
func (c *checker) rejectReturn(file *ast.File, sig *types.Signature, errName string) (string, bool) {
	if sig == nil {
		return "", false
	}
	res := sig.Results()
	if res.Len() == 0 || !types.Identical(res.At(res.Len()-1).Type(), errorType) {
		return "", false
	}
	q := newQualifier(c.pass.Pkg, file)
	var vals []string
	for i := range res.Len() - 1 {
		z, ok := q.zeroValue(res.At(i).Type())
		if !ok {
			return "", false
		}
		vals = append(vals, z)
	}
	return "return " + strings.Join(append(vals, errName), ", "), true
}

// exportedName capitalises the first letter of name for use inside a
// camel-case identifier.
func exportedName(name string) string {
	r, size := utf8.DecodeRuneInString(name)
	return string(unicode.ToUpper(r)) + name[size:]
}
