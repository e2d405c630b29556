package unboundedqueue

import (
	"bytes"
	"go/format"
	"go/token"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// keepFormatted returns the edits es of one fix, all in the file tf whose
// content is src, changed so that applying them leaves a gofmt-clean file
// gofmt-clean. Edits that insert lines or change a line's length can move
// the column at which gofmt aligns the trailing comments of neighbouring
// lines; keepFormatted widens such edits to rewrite those lines as gofmt
// would. It reports false when that is not possible (gofmt would change the
// line structure), and returns es unchanged when src was not gofmt-clean.
func keepFormatted(tf *token.File, src []byte, es []analysis.TextEdit) ([]analysis.TextEdit, bool) {
	if formatted, err := format.Source(src); err != nil || !bytes.Equal(formatted, src) {
		return es, true
	}
	type edit struct {
		start, end int // in src
		text       string
		aStart     int // where text starts in the edited file
	}
	var sorted []edit
	for _, e := range es {
		end := e.End
		if !end.IsValid() {
			end = e.Pos
		}
		sorted = append(sorted, edit{start: tf.Offset(e.Pos), end: tf.Offset(end), text: string(e.NewText)})
	}
	slices.SortStableFunc(sorted, func(a, b edit) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return a.end - b.end
	})
	sorted = slices.CompactFunc(sorted, func(a, b edit) bool { return a.start == b.start && a.end == b.end && a.text == b.text })

	var a strings.Builder
	last := 0
	for i := range sorted {
		if sorted[i].start < last {
			return nil, false // overlapping edits: fixtest reports them
		}
		a.Write(src[last:sorted[i].start])
		sorted[i].aStart = a.Len()
		a.WriteString(sorted[i].text)
		last = sorted[i].end
	}
	a.Write(src[last:])
	edited := a.String()
	b, err := format.Source([]byte(edited))
	if err != nil {
		return nil, false
	}
	if string(b) == edited {
		return es, true
	}
	linesA, linesB := strings.SplitAfter(edited, "\n"), strings.SplitAfter(string(b), "\n")
	if len(linesA) != len(linesB) {
		return nil, false // gofmt would do more than realign comments
	}

	// Offsets of the starts of lines in the edited file and in gofmt's.
	startsA, startsB := lineStarts(linesA), lineStarts(linesB)
	lineOf := func(off int) int {
		i, found := slices.BinarySearch(startsA, off)
		if !found {
			i--
		}
		return i
	}
	// toB maps an offset of the edited file to gofmt's: within a line gofmt
	// left alone, column for column; in a line it rewrites (which a hunk
	// covers whole), at its start or the end of its content.
	toB := func(off int) int {
		l := lineOf(off)
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
		for _, e := range sorted {
			eEnd := e.aStart + len(e.text)
			if eEnd > off || (eEnd == off && !atEnd) {
				break
			}
			shift = e.end - eEnd
		}
		return off + shift
	}

	// Hunks: each edit's text, and each line gofmt rewrites, merged where
	// they overlap or touch.
	type span struct{ start, end int }
	var spans []span
	for _, e := range sorted {
		spans = append(spans, span{e.aStart, e.aStart + len(e.text)})
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
	pos := func(off int) token.Pos { return tf.Pos(off) }
	var out []analysis.TextEdit
	for _, h := range hunks {
		start, end := toSrc(h.start, false), toSrc(h.end, true)
		out = append(out, analysis.TextEdit{Pos: pos(start), End: pos(end), NewText: b[toB(h.start):toB(h.end)]})
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
