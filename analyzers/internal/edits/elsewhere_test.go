package edits

import (
	"os"
	"path/filepath"
	"testing"
)

func TestMentionedElsewhere(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a.go":         "package p\n\nfunc helper() {}\n\nfunc other() {}\n",
		"a_windows.go": "package p\n\nfunc onWindows() { helper() }\n",
		"a_test.go":    "package p\n\nfunc testing() { unused() }\n",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a := filepath.Join(dir, "a.go")
	pass := newPass(t, a, files["a.go"])
	pos := pass.Files[0].Pos()
	if !MentionedElsewhere(pass, pos, "helper") {
		t.Error("helper is called in a_windows.go, which the pass does not analyze")
	}
	if !MentionedElsewhere(pass, pos, "unused") {
		t.Error("unused is named in a_test.go")
	}
	if MentionedElsewhere(pass, pos, "other") {
		t.Error("other is named only in the analyzed a.go")
	}
}
