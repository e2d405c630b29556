package edits

import (
	"bytes"
	"go/format"
	"go/token"
	"slices"

	"golang.org/x/tools/go/analysis"
)

// Normalize returns edits with the effect of raw that leave every file
// gofmt-clean: inserting a field, a spec or a key can change the alignment of
// its neighbours, so when gofmt would move anything the edits become the
// lines gofmt gives, as small line hunks that other fixes can merge with. A
// file that was not gofmt-clean before keeps the raw edits. It returns false
// when the raw edits overlap or do not parse.
func Normalize(pass *analysis.Pass, raw []analysis.TextEdit) ([]analysis.TextEdit, bool) {
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
		es := byFile[tf]
		src, err := FileContent(pass, tf)
		if err != nil {
			return nil, false
		}
		edited, err := Apply(tf, src, es)
		if err != nil {
			return nil, false
		}
		formatted, err := format.Source(edited)
		if err != nil {
			return nil, false
		}
		if bytes.Equal(formatted, edited) || !isFormatted(src) {
			out = append(out, dedupe(tf, es)...)
			continue
		}
		out = append(out, lineEdits(tf, src, formatted)...)
	}
	return out, true
}

// dedupe drops repeated identical edits.
func dedupe(tf *token.File, es []analysis.TextEdit) []analysis.TextEdit {
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

// maxDiffCells bounds the line diff's table; past it the changed middle of
// the file becomes one hunk.
const maxDiffCells = 4 << 20

// lineEdits returns the edits that turn src into dst, one per run of changed
// lines.
func lineEdits(tf *token.File, src, dst []byte) []analysis.TextEdit {
	a, b := splitLines(src), splitLines(dst)
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

// splitLines splits s into lines, each with its newline.
func splitLines(s []byte) []string {
	var out []string
	for len(s) > 0 {
		i := bytes.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, string(s))
			break
		}
		out = append(out, string(s[:i+1]))
		s = s[i+1:]
	}
	return out
}

func isFormatted(src []byte) bool {
	formatted, err := format.Source(src)
	return err == nil && bytes.Equal(formatted, src)
}
