package edits

import (
	"bytes"
	"go/format"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis"
)

const aligned = `package p

import "fmt"

type server struct {
	mu   int // guards jobs
	jobs []int // the queue
}

const (
	small = 10 // a few
	big   = 1000000 // many
)

func f() { fmt.Println() }
`

func TestFinish(t *testing.T) {
	src, err := format.Source([]byte(aligned))
	if err != nil {
		t.Fatal(err)
	}
	pass := newPass(t, "a.go", string(src))
	field := after(t, pass, "a.go", "jobs []int // the queue")
	far := after(t, pass, "a.go", "fmt.Println(")
	bigValue := at(t, pass, "a.go", "1000000")
	importAt := after(t, pass, "a.go", `"fmt"`)

	for _, test := range []struct {
		name string
		raw  []analysis.TextEdit
		// kept are raw edits that must come back as they are: other fixes
		// that make the same edit must still merge with them.
		kept []analysis.TextEdit
	}{
		{
			name: "a field with a longer name realigns the comments of its neighbours",
			raw: []analysis.TextEdit{
				insert(field, "\n\tslowSem chan struct{} // the slow work's pool"),
				insert(far, `"far"`),
			},
			kept: []analysis.TextEdit{insert(far, `"far"`)},
		},
		{
			name: "a narrower constant realigns the comments of its block",
			raw:  []analysis.TextEdit{{Pos: bigValue, End: bigValue + 7, NewText: []byte("64")}},
		},
		{
			name: "an import and a line that gofmt leaves alone are kept",
			raw: []analysis.TextEdit{
				insert(importAt, "\nimport \"errors\""),
				insert(far, `errors.New("x")`),
			},
			kept: []analysis.TextEdit{insert(importAt, "\nimport \"errors\""), insert(far, `errors.New("x")`)},
		},
		{
			name: "two blank lines that gofmt folds into one become a line hunk",
			raw:  []analysis.TextEdit{insert(field, "\n\n\n\tdone bool")},
		},
		{
			name: "identical edits count once",
			raw:  []analysis.TextEdit{insert(far, `"x"`), insert(far, `"x"`)},
			kept: []analysis.TextEdit{insert(far, `"x"`)},
		},
	} {
		t.Run(test.name, func(t *testing.T) {
			got, ok := Finish(pass, test.raw)
			if !ok {
				t.Fatal("Finish failed")
			}
			tf := pass.Fset.File(field)
			rawOut, err := Apply(tf, src, test.raw)
			if err != nil {
				t.Fatal(err)
			}
			want, err := format.Source(rawOut)
			if err != nil {
				t.Fatal(err)
			}
			out, err := Apply(tf, src, got)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out, want) {
				t.Errorf("the finished edits give\n%s\nwant gofmt's\n%s", out, want)
			}
			for _, k := range test.kept {
				if !slices.ContainsFunc(got, func(e analysis.TextEdit) bool {
					return e.Pos == k.Pos && e.End == k.End && bytes.Equal(e.NewText, k.NewText)
				}) {
					t.Errorf("edit %q at %d was not kept as it is: %v", k.NewText, k.Pos, got)
				}
			}
		})
	}
}

func TestFinishFails(t *testing.T) {
	pass := newPass(t, "a.go", aligned)
	far := at(t, pass, "a.go", "fmt.Println()")
	for name, raw := range map[string][]analysis.TextEdit{
		"overlapping edits":          {{Pos: far, End: far + 5, NewText: []byte("x")}, {Pos: far + 2, End: far + 8, NewText: []byte("y")}},
		"two insertions at a point":  {insert(far, "a"), insert(far, "b")},
		"a file that does not parse": {insert(far, "}")},
	} {
		if _, ok := Finish(pass, raw); ok {
			t.Errorf("%s: Finish succeeded", name)
		}
	}
}

// A file that was not gofmt-clean keeps the raw edits: gofmt would rewrite
// more than the fix.
func TestFinishUnformatted(t *testing.T) {
	pass := newPass(t, "a.go", aligned) // the comments of aligned are not aligned
	field := at(t, pass, "a.go", "jobs []int")
	raw := []analysis.TextEdit{insert(field, "slowSem chan struct{}\n\t")}
	got, ok := Finish(pass, raw)
	if !ok || len(got) != 1 || got[0].Pos != raw[0].Pos || !bytes.Equal(got[0].NewText, raw[0].NewText) {
		t.Errorf("Finish = %v, %v; want the raw edit", got, ok)
	}
}

// Two imports added after the same last spec come out sorted, as one edit,
// and the file stays gofmt-clean.
func TestFinishMergesImports(t *testing.T) {
	src := "package p\n\nimport (\n\t\"context\"\n)\n\nvar _ context.Context\n"
	pass := newPass(t, "p.go", src)
	file := pass.Files[0]
	_, timeEdit, _ := AddImport(pass, file, "time")
	_, slogEdit, _ := AddImport(pass, file, "log/slog")
	es, ok := Finish(pass, append(timeEdit, slogEdit...))
	if !ok {
		t.Fatal("Finish failed on two imports at one point")
	}
	out, err := Apply(pass.Fset.File(file.Pos()), []byte(src), es)
	if err != nil {
		t.Fatal(err)
	}
	want := "package p\n\nimport (\n\t\"context\"\n\t\"log/slog\"\n\t\"time\"\n)\n\nvar _ context.Context\n"
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}
