package knowledge_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/queuecheck/queuecheck/analyzers"
	"github.com/queuecheck/queuecheck/analyzers/internal/knowledge"
)

var update = flag.Bool("update", false, "rewrite "+knowledge.DocPath)

// TestDocs checks that the generated page lists the lists as they are.
func TestDocs(t *testing.T) {
	path := filepath.Join("..", "..", "..", filepath.FromSlash(knowledge.DocPath))
	want := knowledge.Markdown()
	if *update {
		if err := os.WriteFile(path, want, 0o666); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is out of date: run go test ./analyzers/internal/knowledge -update", knowledge.DocPath)
	}
}

var kebab = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// TestLists checks each list's name, doc and entries.
func TestLists(t *testing.T) {
	names := make(map[string]bool)
	for _, l := range knowledge.All() {
		if !kebab.MatchString(l.Name) || names[l.Name] {
			t.Errorf("list name %q is not kebab-case or not unique", l.Name)
		}
		names[l.Name] = true
		if l.Doc == "" || strings.HasSuffix(l.Doc, ".") {
			t.Errorf("%s: doc %q: want a line without a final period", l.Name, l.Doc)
		}
		entries := l.Builtin()
		if len(entries) == 0 {
			t.Errorf("%s: no entries", l.Name)
		}
		for i, e := range entries {
			if slices.Index(entries, e) != i {
				t.Errorf("%s: %q listed twice", l.Name, e)
			}
			if !l.Has(e) {
				t.Errorf("%s: Has(%q) = false", l.Name, e)
			}
		}
	}
}

// TestFlags checks that every list with a flag is that flag of its check,
// which is how standalone runs, go vet and golangci-lint all set it.
func TestFlags(t *testing.T) {
	byName := make(map[string]*flag.FlagSet)
	for _, a := range analyzers.All {
		byName[a.Name] = &a.Flags
	}
	for _, l := range knowledge.All() {
		if l.Flag == "" {
			continue
		}
		check, name, _ := strings.Cut(l.Flag, ".")
		fs := byName[check]
		if fs == nil {
			t.Errorf("%s: flag -%s: no check %s", l.Name, l.Flag, check)
			continue
		}
		f := fs.Lookup(name)
		switch {
		case f == nil:
			t.Errorf("%s: check %s has no flag %s", l.Name, check, name)
		case l.Kind != knowledge.Funcs && f.Value != flag.Value(l):
			t.Errorf("%s: flag -%s is not the list", l.Name, l.Flag)
		}
	}
}

func TestMatch(t *testing.T) {
	for _, tc := range []struct {
		l    *knowledge.List
		s    string
		want bool
	}{
		{knowledge.MessageReads, "Recv", true},
		{knowledge.MessageReads, "recv", false},
		{knowledge.MessageReads, "RecvMsg", false},
		{knowledge.QuietPackages, "go.uber.org/zap", true},
		{knowledge.QuietPackages, "go.uber.org/zap/zapcore", false},
		{knowledge.TestFrameworks, "github.com/onsi/ginkgo", true},
		{knowledge.TestFrameworks, "github.com/onsi/ginkgo/v2/dsl", true},
		{knowledge.TestFrameworks, "github.com/onsi/ginkgox", false},
		{knowledge.TestFrameworks, "github.com/stretchr/testify/assert", true},
		{knowledge.DropWords, "droppedtotal", true},
		{knowledge.DropWords, "sent", false},
		{knowledge.IDSuffixes, "requestid", true},
		{knowledge.IDSuffixes, "idle", false},
		{knowledge.StageLabels, "stage", true},
		{knowledge.StageLabels, "stages", false},
	} {
		if got := tc.l.Match(tc.s); got != tc.want {
			t.Errorf("%s.Match(%q) = %v, want %v", tc.l.Name, tc.s, got, tc.want)
		}
	}
	if !knowledge.NonItemTypes.HasType("os", "Signal") || knowledge.NonItemTypes.HasType("os", "File") || !knowledge.InterceptorHandlerTypes.HasType("google.golang.org/grpc", "UnaryHandler") {
		t.Errorf("HasType: wrong answer")
	}
	if !knowledge.LoggerTypeWords.Match("SugaredLogger") || knowledge.LoggerTypeWords.Match("catalog") || !knowledge.LoggerTypes.Match("Entry") {
		t.Errorf("logger type names: wrong answer")
	}
	if !knowledge.TestSupportElements.HasElement("example.com/svc/mocks/db") || knowledge.TestSupportElements.HasElement("example.com/mockery") {
		t.Errorf("TestSupportElements.HasElement: wrong answer")
	}
}

// TestNoAllocs checks that lookups do not allocate: they run on every call
// and identifier the checks look at.
func TestNoAllocs(t *testing.T) {
	allocs := testing.AllocsPerRun(100, func() {
		knowledge.MessageReads.Has("Recv")
		knowledge.QuietPackages.Match("github.com/rs/zerolog")
		knowledge.TestFrameworks.Match("github.com/onsi/gomega/gstruct")
		knowledge.DropWords.Match("overflowcount")
		knowledge.IDSuffixes.Match("uuid")
		knowledge.TestSupportElements.HasElement("a/b/testutil/c")
		knowledge.NonItemTypes.HasType("google.golang.org/grpc/metadata", "MD")
		knowledge.LogCallPrefixes.Match("(*log/slog.Logger).Info")
	})
	if allocs != 0 {
		t.Errorf("lookups allocate %v times", allocs)
	}
}

// TestSet checks the flag notation: entries are added, -ENTRY removes a
// built-in one, setting again replaces, and bad entries leave the list as
// it was.
func TestSet(t *testing.T) {
	l := knowledge.MessageReads
	defer reset(t, l)
	if err := l.Set("Poll, -Recv,+Take,Poll,ReadMessage"); err != nil {
		t.Fatal(err)
	}
	if got, want := l.String(), "Poll,Take,-Recv"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if !l.Has("Poll") || !l.Has("Take") || l.Has("Recv") || !l.Has("ReadMessage") {
		t.Errorf("after Set: Poll %v Take %v Recv %v ReadMessage %v", l.Has("Poll"), l.Has("Take"), l.Has("Recv"), l.Has("ReadMessage"))
	}
	if err := l.Set(l.String()); err != nil || l.String() != "Poll,Take,-Recv" {
		t.Errorf("Set(String()) = %v, String() = %q", err, l.String())
	}
	for _, bad := range []string{"-Poll", "a.b", "two words", "-"} {
		err := l.Set(bad)
		if bad == "-" {
			if err != nil {
				t.Errorf("Set(%q) = %v, want nil (nothing)", bad, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("Set(%q) = nil, want an error", bad)
		}
	}
	if err := l.Set("Poll,-Recv"); err != nil {
		t.Fatal(err)
	}
	if err := l.Set("-Nothing"); err == nil || !l.Has("Poll") || l.Has("Recv") {
		t.Errorf("a failed Set changed the list (err %v)", err)
	}
	if err := l.Set(""); err != nil || l.String() != "" || !l.Has("Recv") || l.Has("Poll") {
		t.Errorf("Set(\"\") did not restore the built-in entries")
	}
	if !slices.Equal(l.Entries(), l.Builtin()) {
		t.Errorf("Entries() = %q, want %q", l.Entries(), l.Builtin())
	}

	w := knowledge.DropWords
	defer reset(t, w)
	if err := w.Set("Lost"); err == nil {
		t.Errorf("a word with capitals: no error")
	}
	if err := w.Set("evict,-full"); err != nil {
		t.Fatal(err)
	}
	if !w.Match("evictions") || w.Match("queuefull") {
		t.Errorf("DropWords after Set: evictions %v, queuefull %v", w.Match("evictions"), w.Match("queuefull"))
	}
	p := knowledge.QuietPackages
	defer reset(t, p)
	if err := p.Set("example.com/metrics,-fmt"); err != nil {
		t.Fatal(err)
	}
	if !p.Has("example.com/metrics") || p.Has("fmt") {
		t.Errorf("QuietPackages after Set: wrong entries")
	}
	if err := p.Set("not a path"); err == nil {
		t.Errorf("a bad path: no error")
	}
}

// reset empties what the test set on l, as the plugin's reset to the
// default does.
func reset(t *testing.T, l *knowledge.List) {
	t.Helper()
	if err := l.Set(""); err != nil {
		t.Errorf("resetting %s: %v", l.Name, err)
	}
}
