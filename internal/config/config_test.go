package config

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// fakes returns two checks with flags of every kind the suite has.
func fakes() []*analysis.Analyzer {
	a := &analysis.Analyzer{Name: "chansize", Doc: "chansize: x", Run: func(*analysis.Pass) (any, error) { return nil, nil }}
	a.Flags.Int64("maxbytes", 1<<20, "bytes")
	a.Flags.Int64("max", 65536, "items")
	b := &analysis.Analyzer{Name: "resolverpool", Doc: "resolverpool: x", Run: func(*analysis.Pass) (any, error) { return nil, nil }}
	b.Flags.Var(&list{}, "slow", "slow functions, comma-separated")
	b.Flags.Bool("mutex", false, "locks")
	return []*analysis.Analyzer{a, b}
}

// list is a comma-separated flag that rejects entries without a dot, as
// the function lists reject names in none of their forms.
type list struct{ items []string }

func (l *list) String() string { return strings.Join(l.items, ",") }
func (l *list) Set(s string) error {
	var items []string
	for e := range strings.SplitSeq(s, ",") {
		if e == "" {
			continue
		}
		if !strings.Contains(e, ".") {
			return errors.New(`"` + e + `" is not a function name`)
		}
		items = append(items, e)
	}
	l.items = items
	return nil
}

// tree writes files (slash-separated names to contents) under a new
// directory with a go.mod, and returns it.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	files["go.mod"] = "module example.com/m\n"
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// Each malformed file is an error naming the file, the line and the key,
// and saying what is wrong.
func TestMalformed(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       string // the error after "queuecheck.toml:"
	}{
		{"syntax", "checks = [\"all\"\n", `1: expected a comma (',') or array terminator (']')`},
		{"unterminated string", "[chansize]\nmaxbytes = \"12\n", `2: strings cannot contain newlines`},
		{"unknown top-level key", "chekcs = [\"all\"]\n", `1: chekcs: unknown key; did you mean checks?`},
		{"unknown check table", "[chansise]\nmax = 1\n", `1: chansise: unknown key; did you mean chansize?`},
		{"unknown check in checks", "checks = [\"inherit\", \"-resolverpol\"]\n", `1: checks: unknown check "resolverpol"; did you mean resolverpool?`},
		{"checks not a list", "checks = \"all\"\n", `1: checks: want a list of check names`},
		{"checks element not a name", "checks = [1]\n", `1: checks: want check names, not 1`},
		{"unknown flag", "[chansize]\nmaxbyte = 1\n", `2: chansize.maxbyte: chansize has no flag "maxbyte"; did you mean maxbytes?`},
		{"flag value of the wrong kind", "[chansize]\nmax = \"many\"\n", `2: chansize.max: invalid value "many"`},
		{"not a whole number", "[chansize]\nmax = 1.5\n", `2: chansize.max: invalid value "1.5"`},
		{"boolean flag given a number", "[resolverpool]\nmutex = 2\n", `2: resolverpool.mutex: invalid value "2"`},
		{"bad function name", "[resolverpool]\nslow = [\"inherit\", \"Sleep\"]\n", `2: resolverpool.slow: invalid value "Sleep": "Sleep" is not a function name`},
		{"table as a value", "[resolverpool]\nslow = { a = 1 }\n", `2: resolverpool.slow: want a string, number, boolean or list, not a table`},
		{"nested list", "[resolverpool]\nslow = [[\"a.b\"]]\n", `2: resolverpool.slow: list element 1: a list holds strings`},
		{"date", "[chansize]\nmax = 1979-05-27\n", `2: chansize.max: want a string, number, boolean or list, not time.Time`},
		{"check not a table", "chansize = 5\n", `1: chansize: want a table of chansize's flags`},
		{"overrides not a table", "overrides = [\"gen\"]\n", `1: overrides: want a table of overrides by path`},
		{"absolute override path", "[overrides.\"/gen\"]\nchecks = []\n", `1: overrides."/gen": want a slash-separated path relative to the file's directory`},
		{"override path with ..", "[overrides.\"../x\"]\nchecks = []\n", `1: overrides."../x": path "../x" has an empty, "." or ".." element`},
		{"bad glob", "[overrides.\"gen/[\"]\nchecks = []\n", `1: overrides."gen/[": path "gen/[": element "[": syntax error in pattern`},
		{"unknown key in an override", "[overrides.gen]\nchecks = []\nmaxbytes = 1\n", `3: overrides.gen.maxbytes: unknown key`},
		{"unknown flag in an override", "[overrides.gen.chansize]\nmaxbytes = 1\nmaxbites = 2\n", `3: overrides.gen.chansize.maxbites: chansize has no flag "maxbites"; did you mean maxbytes?`},
		{"dotted key", "[overrides.gen]\nchansize.mx = 1\n", `2: overrides.gen.chansize.mx: chansize has no flag "mx"; did you mean max?`},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := tree(t, map[string]string{"queuecheck.toml": c.text})
			t.Chdir(root)
			_, err := New(fakes()).ForDir(root)
			if err == nil {
				t.Fatalf("no error for\n%s", c.text)
			}
			if got := err.Error(); !strings.HasPrefix(got, "queuecheck.toml:"+c.want) {
				t.Errorf("error\n\t%s\nwant it to start\n\tqueuecheck.toml:%s", got, c.want)
			}
		})
	}
}

// Every error of a file is reported, in the file's order.
func TestAllErrors(t *testing.T) {
	root := tree(t, map[string]string{"queuecheck.toml": "[chansize]\nmx = 1\nmaxbytes = \"x\"\n[resolverpol]\n"})
	t.Chdir(root)
	_, err := New(fakes()).ForDir(root)
	want := "queuecheck.toml:2: chansize.mx: chansize has no flag \"mx\"; did you mean max? (queuecheck -explain chansize lists them)\n" +
		"queuecheck.toml:3: chansize.maxbytes: invalid value \"x\": parse error\n" +
		"queuecheck.toml:4: resolverpol: unknown key; did you mean resolverpool?"
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
}

// Validating a value leaves the flag as it was.
func TestValidateRestores(t *testing.T) {
	as := fakes()
	root := tree(t, map[string]string{"queuecheck.toml": "[chansize]\nmax = 7\n[resolverpool]\nslow = [\"a.B\"]\n"})
	if _, err := New(as).ForDir(root); err != nil {
		t.Fatal(err)
	}
	if got := as[0].Flags.Lookup("max").Value.String(); got != "65536" {
		t.Errorf("max = %s after reading the file, want the default", got)
	}
	if got := as[1].Flags.Lookup("slow").Value.String(); got != "" {
		t.Errorf("slow = %q after reading the file, want the default", got)
	}
}

func TestMerge(t *testing.T) {
	root := tree(t, map[string]string{
		"queuecheck.toml": `
checks = ["inherit", "-resolverpool"]
[chansize]
max = 100
maxbytes = 4e6
[resolverpool]
slow = ["a.Slow"]
[overrides."gen/..."]
checks = ["-all"]
[overrides."cmd/*".chansize]
max = 200
[overrides."cmd/tool".chansize]
max = 300
`,
		"sub/queuecheck.toml": `
checks = ["chansize", "resolverpool"]
[chansize]
max = 1000
[resolverpool]
slow = ["inherit", "b.Slow"]
`,
		"sub/deep/queuecheck.toml": `
[resolverpool]
slow = ["c.Slow"]
[overrides.x]
checks = ["inherit", "-chansize"]
`,
	})
	outside := filepath.Dir(root)
	if err := os.WriteFile(filepath.Join(outside, FileName), []byte("not toml at all ["), 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(filepath.Join(outside, FileName))

	s := New(fakes())
	for _, c := range []struct {
		dir     string
		enabled string
		flags   map[string]string
	}{
		{".", "chansize", map[string]string{"chansize.max": "100", "chansize.maxbytes": "4000000", "resolverpool.slow": "a.Slow"}},
		{"pkg", "chansize", map[string]string{"chansize.max": "100", "resolverpool.slow": "a.Slow"}},
		{"gen", "", nil},
		{"gen/deeper", "", nil},
		{"cmd/a", "chansize", map[string]string{"chansize.max": "200"}},
		{"cmd/tool", "chansize", map[string]string{"chansize.max": "300"}},
		{"cmd/a/b", "chansize", map[string]string{"chansize.max": "100"}},
		{"sub", "chansize,resolverpool", map[string]string{"chansize.max": "1000", "chansize.maxbytes": "4000000", "resolverpool.slow": "a.Slow,b.Slow"}},
		{"sub/deep", "chansize,resolverpool", map[string]string{"chansize.max": "1000", "resolverpool.slow": "c.Slow"}},
		{"sub/deep/x", "resolverpool", map[string]string{"chansize.max": "1000"}},
	} {
		e, err := s.ForDir(filepath.Join(root, filepath.FromSlash(c.dir)))
		if err != nil {
			t.Fatalf("%s: %v", c.dir, err)
		}
		if got := enabledList(s.analyzers, e.Enabled); got != c.enabled {
			t.Errorf("%s: enabled %q, want %q", c.dir, got, c.enabled)
		}
		for name, want := range c.flags {
			if got := e.Flags[name].Text; got != want {
				t.Errorf("%s: %s = %q, want %q", c.dir, name, got, want)
			}
		}
	}
}

// A value given where the suite runs overrides the files', and Apply sets
// the flags.
func TestOverrideAndApply(t *testing.T) {
	as := fakes()
	root := tree(t, map[string]string{"queuecheck.toml": "[chansize]\nmax = 100\nmaxbytes = 5\n"})
	s := New(as)
	s.Override("chansize.maxbytes", "9")
	e, err := s.ForDir(root)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Apply(e); err != nil {
		t.Fatal(err)
	}
	get := func(a *analysis.Analyzer, name string) string {
		return a.Flags.Lookup(name).Value.(flag.Getter).String()
	}
	if get(as[0], "max") != "100" || get(as[0], "maxbytes") != "9" || get(as[1], "mutex") != "false" {
		t.Errorf("flags after Apply: max=%s maxbytes=%s mutex=%s", get(as[0], "max"), get(as[0], "maxbytes"), get(as[1], "mutex"))
	}
}

func TestMatches(t *testing.T) {
	for _, c := range []struct {
		pattern, rel string
		want         bool
	}{
		{"gen", "gen", true},
		{"gen", "gen/x", false},
		{"gen/...", "gen", true},
		{"gen/...", "gen/x/y", true},
		{"gen/...", "generated", false},
		{"...", ".", true},
		{"...", "a/b", true},
		{"cmd/*", "cmd/x", true},
		{"cmd/*", "cmd/x/y", false},
		{"*/testutil/...", "a/testutil/b", true},
		{"gen", ".", false},
	} {
		if got := matches(c.pattern, c.rel); got != c.want {
			t.Errorf("matches(%q, %q) = %v, want %v", c.pattern, c.rel, got, c.want)
		}
	}
}

func TestFingerprint(t *testing.T) {
	root := tree(t, map[string]string{"a.go": "package a\n"})
	if Fingerprint(root) != nil {
		t.Errorf("a module without configuration files has a fingerprint")
	}
	write := func(name, text string) {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("sub/queuecheck.toml", "[chansize]\nmax = 1\n")
	one := Fingerprint(filepath.Join(root, "sub"))
	write("testdata/queuecheck.toml", "x")
	write("nested/go.mod", "module n\n")
	write("nested/queuecheck.toml", "x")
	if two := Fingerprint(root); string(two) != string(one) {
		t.Errorf("files in testdata or a nested module changed the fingerprint")
	}
	write("sub/queuecheck.toml", "[chansize]\nmax = 2\n")
	if three := Fingerprint(root); string(three) == string(one) {
		t.Errorf("a changed file left the fingerprint as it was")
	}
}
