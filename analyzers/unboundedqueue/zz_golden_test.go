package unboundedqueue_test

import (
	"os"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/queuecheck/queuecheck/analyzers/internal/fixtest"
	"github.com/queuecheck/queuecheck/analyzers/unboundedqueue"
)

func TestWriteGolden(t *testing.T) {
	pkg := os.Getenv("GOLDEN")
	if pkg == "" {
		t.Skip()
	}
	for _, kv := range strings.Fields(os.Getenv("FLAGS")) {
		k, v, _ := strings.Cut(kv, "=")
		unboundedqueue.Analyzer.Flags.Set(k, v)
	}
	rs := analysistest.Run(t, testdata, unboundedqueue.Analyzer, pkg)
	for _, r := range rs {
		fset := r.Action.Package.Fset
		byFile := map[string][]analysis.TextEdit{}
		for _, d := range r.Action.Diagnostics {
			for _, f := range d.SuggestedFixes {
				for _, e := range f.TextEdits {
					n := fset.File(e.Pos).Name()
					byFile[n] = append(byFile[n], e)
				}
			}
		}
		for _, name := range r.Action.Package.CompiledGoFiles {
			src, _ := os.ReadFile(name)
			out := src
			if es := byFile[name]; len(es) > 0 {
				var err error
				out, err = fixtest.Apply(fset.File(es[0].Pos), src, es)
				if err != nil {
					t.Fatal(err)
				}
			}
			os.WriteFile(name+".golden", out, 0o644)
		}
	}
}
