package edits

import (
	"bytes"
	"go/format"
	"go/token"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Finish returns the edits of one fix, raw, changed so that applying them
// leaves every gofmt-clean file gofmt-clean. Inserting a line or changing a
// line's width can move the column at which gofmt aligns the comments,
// field types or values of neighbouring lines: Finish widens the edits that
// touch such lines, and adds the lines gofmt would realign, to the text
// gofmt gives. Other edits stay as they are, so that the same edit made by
// another finding's fix (an import, a shared declaration) still merges with
// it. Where gofmt would change more than the alignment, the file's edits
// become line hunks of gofmt's output. A file that was not gofmt-clean
// keeps the raw edits. Finish reports false when the raw edits overlap or
// leave a file that does not parse.
//
// Imports that AddImport adds at one point (two new imports after the same
// last spec) become one edit, in sorted order: two insertions at one point
// have no defined order, and gofmt sorts an import group.
func Finish(pass *analysis.Pass, raw []analysis.TextEdit) ([]analysis.TextEdit, bool) {
	raw = mergeImports(raw)
	byFile := make(map[*token.File][]analysis.TextEdit)
	var files []*token.File
	for _, e := range raw {
		tf := pass.Fset.File(e.Pos)
		if tf == nil {
			return nil, false
		}
		if _, ok := byFile[tf]; !ok {
			files = append(files, tf)
		}
		byFile[tf] = append(byFile[tf], e)
	}
	var out []analysis.TextEdit
	for _, tf := range files {
		src, err := FileContent(pass, tf)
		if err != nil {
			return nil, false
		}
		es, ok := finishFile(tf, src, byFile[tf])
		if !ok {
			return nil, false
		}
		out = append(out, es...)
	}
	return out, true
}

// finishFile is Finish for the edits es of the file tf, whose content is src.
func finishFile(tf *token.File, src []byte, es []analysis.TextEdit) ([]analysis.TextEdit, bool) {
	edited, placed, err := apply(tf, src, es)
	if err != nil {
		return nil, false
	}
	formatted, err := format.Source(edited)
	if err != nil {
		return nil, false
	}
	if bytes.Equal(formatted, edited) || !isFormatted(src) {
		return dedupe(es), true
	}
	if realigned, ok := realign(tf, edited, formatted, placed); ok {
		return realigned, true
	}
	return lineEdits(tf, src, formatted), true
}

// importText matches the text of an edit AddImport makes.
var importText = regexp.MustCompile(`^\s*(import )?("[^"]+")\s*$`)

// mergeImports joins distinct import insertions at one position into one
// edit whose imports are sorted by path.
func mergeImports(es []analysis.TextEdit) []analysis.TextEdit {
	es = dedupe(es)
	var out []analysis.TextEdit
	texts := make(map[token.Pos][][]byte) // the imports inserted at a position
	at := make(map[token.Pos]int)         // their edit's index in out
	for _, e := range es {
		if e.Pos != e.End || !importText.Match(e.NewText) {
			out = append(out, e)
			continue
		}
		i, seen := at[e.Pos]
		if !seen {
			at[e.Pos] = len(out)
			out = append(out, e)
		}
		texts[e.Pos] = append(texts[e.Pos], e.NewText)
		if seen {
			lines := slices.Clone(texts[e.Pos])
			slices.SortFunc(lines, func(a, b []byte) int {
				return bytes.Compare(importText.FindSubmatch(a)[2], importText.FindSubmatch(b)[2])
			})
			out[i].NewText = bytes.Join(lines, nil)
		}
	}
	return out
}

// dedupe drops repeated identical edits.
func dedupe(es []analysis.TextEdit) []analysis.TextEdit {
	var out []analysis.TextEdit
	for _, e := range es {
		if !slices.ContainsFunc(out, func(o analysis.TextEdit) bool {
			return o.Pos == e.Pos && o.End == e.End && bytes.Equal(o.NewText, e.NewText)
		}) {
			out = append(out, e)
		}
	}
	return out
}

// realign returns edits of src that give formatted, gofmt's layout of
// edited, which the placed edits made of src: each edit, widened to the
// lines gofmt rewrites where it touches them, and those lines, merged where
// they touch. It reports false when gofmt changes the number of lines, which
// is more than realigning them.
func realign(tf *token.File, edited, formatted []byte, placed []placed) ([]analysis.TextEdit, bool) {
	linesA, linesB := strings.SplitAfter(string(edited), "\n"), strings.SplitAfter(string(formatted), "\n")
	if len(linesA) != len(linesB) {
		return nil, false
	}
	startsA, startsB := lineStarts(linesA), lineStarts(linesB)
	// toB maps an offset of the edited file to gofmt's: within a line gofmt
	// left alone, column for column; in a line it rewrites (which a hunk
	// covers whole), at its start or the end of its content.
	toB := func(off int) int {
		l, found := slices.BinarySearch(startsA, off)
		if !found {
			l--
		}
		col := off - startsA[l]
		if linesA[l] == linesB[l] || col == 0 {
			return startsB[l] + col
		}
		return startsB[l] + len(strings.TrimSuffix(linesB[l], "\n"))
	}
	// toSrc maps a hunk boundary of the edited file to the source: a start
	// before the edits that begin there, an end after those that end there.
	toSrc := func(off int, atEnd bool) int {
		shift := 0 // source offset minus edited offset, after the edits before off
		for _, e := range placed {
			end := e.at + len(e.text)
			if end > off || (end == off && !atEnd) {
				break
			}
			shift = e.end - end
		}
		return off + shift
	}

	// Hunks: each edit's text, and each line gofmt rewrites, merged where
	// they overlap or touch.
	type span struct{ start, end int }
	var spans []span
	for _, e := range placed {
		spans = append(spans, span{e.at, e.at + len(e.text)})
	}
	for l := range linesA {
		if linesA[l] != linesB[l] {
			spans = append(spans, span{startsA[l], startsA[l] + len(strings.TrimSuffix(linesA[l], "\n"))})
		}
	}
	slices.SortFunc(spans, func(x, y span) int { return x.start - y.start })
	var hunks []span
	for _, s := range spans {
		if n := len(hunks); n > 0 && s.start <= hunks[n-1].end {
			hunks[n-1].end = max(hunks[n-1].end, s.end)
			continue
		}
		hunks = append(hunks, s)
	}
	var out []analysis.TextEdit
	for _, h := range hunks {
		out = append(out, analysis.TextEdit{
			Pos:     tf.Pos(toSrc(h.start, false)),
			End:     tf.Pos(toSrc(h.end, true)),
			NewText: formatted[toB(h.start):toB(h.end)],
		})
	}
	return out, true
}

func lineStarts(lines []string) []int {
	starts := make([]int, len(lines))
	off := 0
	for i, l := range lines {
		starts[i] = off
		off += len(l)
	}
	return starts
}

// maxDiffCells bounds the line diff's table; past it the changed middle of
// the file becomes one hunk.
const maxDiffCells = 4 << 20

// lineEdits returns the edits that turn src into dst, one per run of changed
// lines.
func lineEdits(tf *token.File, src, dst []byte) []analysis.TextEdit {
	a, b := strings.SplitAfter(string(src), "\n"), strings.SplitAfter(string(dst), "\n")
	// Offsets of the lines of a.
	offs := make([]int, len(a)+1)
	for i, l := range a {
		offs[i+1] = offs[i] + len(l)
	}
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	am, bm := a[pre:len(a)-suf], b[pre:len(b)-suf]
	var out []analysis.TextEdit
	hunk := func(ai, aj, bi, bj int) {
		var text bytes.Buffer
		for _, l := range bm[bi:bj] {
			text.WriteString(l)
		}
		out = append(out, analysis.TextEdit{
			Pos:     tf.Pos(offs[pre+ai]),
			End:     tf.Pos(offs[pre+aj]),
			NewText: text.Bytes(),
		})
	}
	if len(am)*len(bm) > maxDiffCells {
		hunk(0, len(am), 0, len(bm))
		return out
	}
	// Longest common subsequence of lines, then one hunk per gap.
	n, m := len(am), len(bm)
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if am[i] == bm[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j := 0, 0
	hi, hj := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && am[i] == bm[j]:
			if hi < i || hj < j {
				hunk(hi, i, hj, j)
			}
			i, j = i+1, j+1
			hi, hj = i, j
		case j < m && (i == n || lcs[i][j+1] >= lcs[i+1][j]):
			j++
		default:
			i++
		}
	}
	if hi < n || hj < m {
		hunk(hi, n, hj, m)
	}
	return out
}

func isFormatted(src []byte) bool {
	formatted, err := format.Source(src)
	return err == nil && bytes.Equal(formatted, src)
}
