package driver

import (
	"os"
	"path/filepath"
	"testing"
)

func TestMayNameMainModule(t *testing.T) {
	mod := t.TempDir()
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module example.com/app\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(mod, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(sub)
	t.Setenv("GOWORK", "")
	for _, tc := range []struct {
		patterns []string
		want     bool
	}{
		{[]string{"./..."}, true},
		{[]string{"."}, true},
		{[]string{"../sub"}, true},
		{[]string{sub}, true},
		{[]string{"all"}, true},
		{[]string{"example.com/app/..."}, true},
		{[]string{"example.com/app/sub"}, true},
		{[]string{"example.com/..."}, true}, // covers the main module
		{[]string{"std"}, false},
		{[]string{"cmd/go"}, false},
		{[]string{"golang.org/x/tools/go/..."}, false},
		{[]string{"std", "golang.org/x/tools/go/...", "./..."}, true},
		{[]string{"example.com/ap..."}, true},  // a prefix of the path
		{[]string{"example.com/apple"}, false}, // another module
	} {
		if got := mayNameMainModule(tc.patterns); got != tc.want {
			t.Errorf("mayNameMainModule(%q) = %v, want %v", tc.patterns, got, tc.want)
		}
	}

	// A workspace, or a working directory in no module: the go command
	// decides, so the main-module dependencies are looked for.
	t.Setenv("GOWORK", filepath.Join(mod, "go.work"))
	if !mayNameMainModule([]string{"std"}) {
		t.Error("with GOWORK set, std is not trusted to be outside the main modules")
	}
	t.Setenv("GOWORK", "")
	if err := os.WriteFile(filepath.Join(mod, "go.work"), []byte("go 1.26\n\nuse .\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if !mayNameMainModule([]string{"std"}) {
		t.Error("with a go.work above, std is not trusted to be outside the main modules")
	}
	t.Chdir(t.TempDir())
	if !mayNameMainModule([]string{"std"}) {
		t.Error("outside any module, the go command must decide")
	}
}
