package fix

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/queuecheck/queuecheck/internal/output"
)

func TestApply(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.go")
	src := "package a\n\nvar x = 1000000\n\nvar y = 2000000\n"
	if err := os.WriteFile(file, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	at := func(s string) (int, int) { i := strings.Index(src, s); return i, i + len(s) }
	edit := func(old, new string) output.Edit {
		s, e := at(old)
		return output.Edit{Filename: file, Start: s, End: e, New: new}
	}
	imp := output.Edit{Filename: file, Start: len("package a"), End: len("package a"), New: "\n\nimport \"errors\""}
	fixes := []*output.Fix{
		{Message: "x", Edits: []output.Edit{edit("1000000", "1024"), imp}},
		{Message: "y", Edits: []output.Edit{edit("2000000", "64"), imp}}, // same import: merged
		{Message: "clash", Edits: []output.Edit{edit("x = 1000000", "x = 1")}},
	}
	res, err := Apply(fixes)
	if err != nil {
		t.Fatal(err)
	}
	if res.Applied != 2 || len(res.Skipped) != 1 || res.Skipped[0] != fixes[2] {
		t.Errorf("applied %d, skipped %v; want 2, [clash]", res.Applied, res.Skipped)
	}
	want := "package a\n\nimport \"errors\"\n\nvar x = 1024\n\nvar y = 64\n"
	if got := string(res.Files[file].New); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if err := res.Write(); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(file); string(got) != want {
		t.Errorf("written file is\n%s", got)
	}
}

func TestUnified(t *testing.T) {
	old := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\n"
	new := "a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\n"
	got := Unified("a/x.go", "b/x.go", []byte(old), []byte(new))
	want := `--- a/x.go
+++ b/x.go
@@ -1,5 +1,5 @@
 a
-b
+B
 c
 d
 e
@@ -9,3 +9,4 @@
 i
 j
 k
+l
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if Unified("x", "y", []byte(old), []byte(old)) != "" {
		t.Error("diff of equal inputs is not empty")
	}
}

// TestDiffRoundTrip checks that the edit script reproduces both inputs.
func TestDiffRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		a := randomLines(r)
		b := randomLines(r)
		var gotA, gotB []string
		for _, o := range diffLines(a, b) {
			if o.kind != '+' {
				gotA = append(gotA, o.text)
			}
			if o.kind != '-' {
				gotB = append(gotB, o.text)
			}
		}
		if strings.Join(gotA, "") != strings.Join(a, "") || strings.Join(gotB, "") != strings.Join(b, "") {
			t.Fatalf("script does not reproduce inputs\na=%q\nb=%q", a, b)
		}
	}
}

func randomLines(r *rand.Rand) []string {
	lines := make([]string, r.IntN(12))
	for i := range lines {
		lines[i] = string(rune('a'+r.IntN(4))) + "\n"
	}
	return lines
}
