package plugin

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/queuecheck/queuecheck/analyzers"
	"github.com/queuecheck/queuecheck/analyzers/chansize"
	"github.com/queuecheck/queuecheck/analyzers/retrysend"
)

// Every check of the suite is a plugin under its own name, returning exactly
// its own analyzer, with type information.
func TestEveryCheckIsRegistered(t *testing.T) {
	for _, a := range analyzers.All {
		newPlugin, err := register.GetPlugin(a.Name)
		if err != nil {
			t.Errorf("%s: %v", a.Name, err)
			continue
		}
		p, err := newPlugin(nil)
		if err != nil {
			t.Errorf("%s: New(nil): %v", a.Name, err)
			continue
		}
		got, err := p.BuildAnalyzers()
		if err != nil || len(got) != 1 || got[0] != wrapped[a] || got[0].Name != a.Name || &got[0].Requires[0] != &a.Requires[0] {
			t.Errorf("%s: BuildAnalyzers() = %v, %v; want the check's own analyzer, configured per package", a.Name, got, err)
		}
		if mode := p.GetLoadMode(); mode != register.LoadModeTypesInfo {
			t.Errorf("%s: GetLoadMode() = %q, want %q", a.Name, mode, register.LoadModeTypesInfo)
		}
	}
}

// New resets every flag to its default before applying settings, which is
// only right if setting a flag to its default text restores it: a flag whose
// Set appends would grow with every construction.
func TestEveryFlagResetsToItsDefault(t *testing.T) {
	for _, a := range analyzers.All {
		a.Flags.VisitAll(func(f *flag.Flag) {
			if err := f.Value.Set(f.DefValue); err != nil {
				t.Errorf("-%s.%s: Set(default %q): %v", a.Name, f.Name, f.DefValue, err)
				return
			}
			if err := f.Value.Set(f.DefValue); err != nil {
				t.Errorf("-%s.%s: second Set(default %q): %v", a.Name, f.Name, f.DefValue, err)
				return
			}
			if got := f.Value.String(); got != f.DefValue {
				t.Errorf("-%s.%s: after Set(%q) twice, String() = %q: Set must replace the value, not add to it", a.Name, f.Name, f.DefValue, got)
			}
		})
	}
}

// chansize's settings are its flags: one number means one thing everywhere.
func TestChansizeSettingsSetItsFlags(t *testing.T) {
	maxbytes := chansize.Analyzer.Flags.Lookup("maxbytes")
	if maxbytes == nil {
		t.Fatal("chansize has no maxbytes flag")
	}
	t.Cleanup(func() { mustNew(t, chansize.Analyzer, nil) })

	mustNew(t, chansize.Analyzer, map[string]any{"maxbytes": 4096})
	if got := maxbytes.Value.String(); got != "4096" {
		t.Errorf("after maxbytes: 4096, -chansize.maxbytes = %s", got)
	}
	// A later construction without settings restores the defaults.
	mustNew(t, chansize.Analyzer, nil)
	if got := maxbytes.Value.String(); got != maxbytes.DefValue {
		t.Errorf("after no settings, -chansize.maxbytes = %s, want the default %s", got, maxbytes.DefValue)
	}
	// Through the registry, as golangci-lint calls it.
	newPlugin, err := register.GetPlugin("chansize")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := newPlugin(map[string]any{"maxbytes": "2048", "max": 100}); err != nil {
		t.Fatal(err)
	}
	if got := maxbytes.Value.String(); got != "2048" {
		t.Errorf("-chansize.maxbytes = %s, want 2048", got)
	}
	if got := chansize.Analyzer.Flags.Lookup("max").Value.String(); got != "100" {
		t.Errorf("-chansize.max = %s, want 100", got)
	}

	_, err = newPlugin(map[string]any{"maxbyte": 1})
	if err == nil || !strings.Contains(err.Error(), `"maxbyte"`) || !strings.Contains(err.Error(), "maxbytes") {
		t.Errorf("unknown key: err = %v, want one naming maxbyte and listing maxbytes", err)
	}
	_, err = newPlugin(map[string]any{"maxbytes": "lots"})
	if err == nil || !strings.Contains(err.Error(), `"maxbytes"`) || !strings.Contains(err.Error(), "lots") {
		t.Errorf("bad value: err = %v, want one naming maxbytes and the value", err)
	}
}

// A list of functions is checked when it is set: a malformed name is an
// error naming the setting, and either spelling of a method is accepted.
func TestFunctionListSettings(t *testing.T) {
	waits := retrysend.Analyzer.Flags.Lookup("waits")
	t.Cleanup(func() { mustNew(t, retrysend.Analyzer, nil) })

	_, err := New(retrysend.Analyzer, map[string]any{"waits": []any{"example.com/retry.Wait", "Sleep"}})
	if err == nil || !strings.Contains(err.Error(), `setting "waits"`) || !strings.Contains(err.Error(), `"Sleep" is not a function name`) {
		t.Errorf("malformed name: err = %v, want one naming the setting and the name", err)
	}
	mustNew(t, retrysend.Analyzer, map[string]any{"waits": []any{"(*example.com/retry.Backoff).Wait", "example.com/retry.Sleep"}})
	if got, want := waits.Value.String(), "example.com/retry.Backoff.Wait,example.com/retry.Sleep"; got != want {
		t.Errorf("-retrysend.waits = %q, want %q", got, want)
	}
}

// fake is an analyzer with one flag of each kind, for decoding tests that do
// not depend on any check's flags.
func fake() (*analysis.Analyzer, *int64, *string, *bool) {
	a := &analysis.Analyzer{Name: "fake", Doc: "fake", Run: func(*analysis.Pass) (any, error) { return nil, nil }}
	n := a.Flags.Int64("limit", 10, "a number")
	s := a.Flags.String("calls", "", "a comma-separated list")
	b := a.Flags.Bool("strict", false, "a switch")
	a.Flags.Float64("ratio", 0.5, "a fraction")
	a.Flags.String("camelCase", "", "a flag with capitals")
	return a, n, s, b
}

func TestSettingsDecoding(t *testing.T) {
	tests := []struct {
		name     string
		settings any
		limit    int64
		calls    string
		strict   bool
	}{
		{"none", nil, 10, "", false},
		{"empty", map[string]any{}, 10, "", false},
		{"int, as YAML decodes it", map[string]any{"limit": 4096}, 4096, "", false},
		{"uint64", map[string]any{"limit": uint64(7)}, 7, "", false},
		{"whole float, as YAML decodes 1e6", map[string]any{"limit": 1e6}, 1000000, "", false},
		{"number as a string", map[string]any{"limit": "42"}, 42, "", false},
		{"list of strings", map[string]any{"calls": []any{"a.F", "(*b.T).M"}}, 10, "a.F,(*b.T).M", false},
		{"typed list", map[string]any{"calls": []string{"x.Y"}}, 10, "x.Y", false},
		{"comma-separated string", map[string]any{"calls": "a.F,b.G"}, 10, "a.F,b.G", false},
		{"bool", map[string]any{"strict": true}, 10, "", true},
		{"bool as a string", map[string]any{"strict": "true"}, 10, "", true},
		{"upper-case key", map[string]any{"LIMIT": 3}, 3, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, limit, calls, strict := fake()
			mustNew(t, a, tt.settings)
			if *limit != tt.limit || *calls != tt.calls || *strict != tt.strict {
				t.Errorf("limit=%d calls=%q strict=%v, want %d %q %v", *limit, *calls, *strict, tt.limit, tt.calls, tt.strict)
			}
		})
	}

	t.Run("lower-cased key finds a camel-case flag", func(t *testing.T) {
		a, _, _, _ := fake()
		mustNew(t, a, map[string]any{"camelcase": "x"})
		if got := a.Flags.Lookup("camelCase").Value.String(); got != "x" {
			t.Errorf("camelCase = %q, want x", got)
		}
	})
	t.Run("fraction", func(t *testing.T) {
		a, _, _, _ := fake()
		mustNew(t, a, map[string]any{"ratio": 0.25})
		if got := a.Flags.Lookup("ratio").Value.String(); got != "0.25" {
			t.Errorf("ratio = %q, want 0.25", got)
		}
	})
	t.Run("defaults restored", func(t *testing.T) {
		a, limit, calls, _ := fake()
		mustNew(t, a, map[string]any{"limit": 1, "calls": "a.F"})
		mustNew(t, a, map[string]any{"strict": true})
		if *limit != 10 || *calls != "" {
			t.Errorf("limit=%d calls=%q after a construction without them, want the defaults", *limit, *calls)
		}
	})
}

func TestSettingsErrors(t *testing.T) {
	tests := []struct {
		name     string
		settings any
		want     []string // substrings of the error
	}{
		{"unknown key", map[string]any{"limt": 1}, []string{`fake: unknown setting "limt"`, "valid settings: calls, camelCase, limit, ratio, strict", "queuecheck -explain fake"}},
		{"bad number", map[string]any{"limit": "many"}, []string{`setting "limit"`, `"many"`}},
		{"fraction for an integer", map[string]any{"limit": 1.5}, []string{`setting "limit"`, `"1.5"`}},
		{"bad bool", map[string]any{"strict": "maybe"}, []string{`setting "strict"`, `"maybe"`}},
		{"no value", map[string]any{"limit": nil}, []string{`setting "limit": no value given`}},
		{"mapping value", map[string]any{"limit": map[string]any{"a": 1}}, []string{`setting "limit": a mapping is not a value`}},
		{"nested list", map[string]any{"calls": []any{[]any{"a"}}}, []string{`setting "calls": list element 1`}},
		{"not a mapping", []any{"limit", 1}, []string{"fake: settings must map setting names to values"}},
		{"scalar", "limit=1", []string{"fake: settings must map setting names to values"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, _, _, _ := fake()
			_, err := New(a, tt.settings)
			if err == nil {
				t.Fatalf("New(%v) succeeded, want an error", tt.settings)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}

	t.Run("analyzer without flags", func(t *testing.T) {
		a := &analysis.Analyzer{Name: "bare", Doc: "bare", Run: func(*analysis.Pass) (any, error) { return nil, nil }}
		_, err := New(a, map[string]any{"x": 1})
		if err == nil || !strings.Contains(err.Error(), `unknown setting "x"; bare has no settings`) {
			t.Errorf("err = %v", err)
		}
	})
}

func mustNew(t *testing.T, a *analysis.Analyzer, settings any) {
	t.Helper()
	if _, err := New(a, settings); err != nil {
		t.Fatalf("New(%s, %v): %v", a.Name, settings, err)
	}
}

// docs/golangci-lint.md lists every setting of every check in the suite.
func TestDocsListEverySetting(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "docs", "golangci-lint.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	for _, a := range analyzers.All {
		a.Flags.VisitAll(func(f *flag.Flag) {
			row := "| " + a.Name + " | `" + f.Name + "` | `-" + a.Name + "." + f.Name + "` |"
			if !strings.Contains(doc, row) {
				t.Errorf("docs/golangci-lint.md has no settings row for -%s.%s; add one starting %q", a.Name, f.Name, row)
			}
		})
	}
}

// The setting why is each check's -CHECK.why: set by its block, back to
// nothing when the block no longer has it, an error when malformed.
func TestWhySetting(t *testing.T) {
	t.Cleanup(func() { mustNew(t, chansize.Analyzer, nil) })
	mustNew(t, chansize.Analyzer, map[string]any{"why": "internal/worker/pool.go:42"})
	if got := chansize.Analyzer.Flags.Lookup("why").Value.String(); got != "internal/worker/pool.go:42" {
		t.Errorf("why: -chansize.why is %q", got)
	}
	mustNew(t, chansize.Analyzer, nil)
	if got := chansize.Analyzer.Flags.Lookup("why").Value.String(); got != "" {
		t.Errorf("without why: -chansize.why is %q", got)
	}
	if _, err := New(chansize.Analyzer, map[string]any{"why": "pool.go"}); err == nil || !strings.Contains(err.Error(), `setting "why"`) {
		t.Errorf("why: pool.go: got error %v, want one naming the setting", err)
	}
}
