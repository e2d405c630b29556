package calls

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"sync"

	"github.com/queuecheck/queuecheck/analyzers/internal/knowledge"
)

// A Table is a set of functions: built-in entries plus extra ones set through
// its flag.Value methods, from a comma-separated list, in which "-name"
// takes a built-in entry out.
type Table struct {
	flag    string // the flag that sets the extra entries, for warnings: "-retrysend.waits"
	builtin map[string]bool
	// pkgs holds every package path an entry may name (each reading of
	// it), so that Contains answers most calls without spelling a key.
	pkgs map[string]bool

	mu      sync.Mutex
	extra   []*entry // sorted by key
	extras  map[string]bool
	removed []string // built-in keys taken out, sorted
	gone    map[string]bool
}

// An entry is one extra entry of a table.
type entry struct {
	key string // as Key spells a function it matches
	// names are the ways to read key: "a/b.c.F" is function F of package
	// a/b.c or method F of type c of package a/b.
	names []name

	found  bool // some name was found
	warned bool // reported as naming nothing
}

// A name is one reading of an entry: a function or method of a package.
type name struct {
	pkg, recv, fn string // recv is "" for a function
	missing       string // why it names nothing, once known: "package p has no function F"
	unloaded      bool   // missing because no package loaded is pkg
}

// New returns a table with no built-in entries whose extra entries flag sets
// ("-check.name").
func New(flag string) *Table { return newTable(flag, nil) }

// NewResolving returns a table of the calls that resolve a hostname, extended
// by flag.
func NewResolving(flag string) *Table { return newTable(flag, knowledge.ResolvingCalls.Builtin()) }

// NewSlow returns a table of the calls that are slow blocking work, extended
// by flag.
func NewSlow(flag string) *Table { return newTable(flag, knowledge.SlowCalls.Builtin()) }

// NewRetrying returns a table of the library calls that retry with pauses
// between attempts, extended by flag.
func NewRetrying(flag string) *Table { return newTable(flag, knowledge.RetryingCalls.Builtin()) }

// NewPooled returns the library calls that check a connection out of a
// pool before their work (knowledge list pooled-calls).
func NewPooled() *Table { return newTable("", knowledge.PooledCalls.Builtin()) }

func newTable(flag string, entries []string) *Table {
	t := &Table{flag: flag, builtin: make(map[string]bool, len(entries)), pkgs: make(map[string]bool)}
	for _, e := range entries {
		t.builtin[e] = true
		addPkgs(t.pkgs, e)
	}
	return t
}

// addPkgs records the package paths key may name: what precedes its last
// dot (pkg/path.Func) and its last but one (pkg/path.Type.Method).
func addPkgs(pkgs map[string]bool, key string) {
	slash := strings.LastIndex(key, "/") + 1
	for range 2 {
		i := strings.LastIndex(key, ".")
		if i < slash {
			return
		}
		key = key[:i]
		pkgs[key] = true
	}
}

// Contains reports whether the table lists fn (its generic origin, for an
// instantiated function or method). A nil table lists nothing.
func (t *Table) Contains(fn *types.Func) bool {
	if t == nil || fn == nil || fn.Pkg() == nil || !t.pkgs[fn.Pkg().Path()] {
		return false
	}
	k := Key(fn)
	return (t.builtin[k] && !t.gone[k]) || t.extras[k] // Set, like any flag's, runs before analysis
}

// Mentions reports whether the table names a function or method of pkg:
// a package that imports none of them cannot call one.
func (t *Table) Mentions(pkg *types.Package) bool {
	return t != nil && pkg != nil && t.pkgs[pkg.Path()]
}

// String returns the extra entries, comma-separated, as Key spells them,
// then the built-in entries taken out, each after "-".
func (t *Table) String() string {
	if t == nil {
		return ""
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	keys := make([]string, 0, len(t.extra)+len(t.removed))
	for _, e := range t.extra {
		keys = append(keys, e.key)
	}
	for _, k := range t.removed {
		keys = append(keys, "-"+k)
	}
	return strings.Join(keys, ",")
}

// Set replaces the extra entries with the comma-separated list s; "-name"
// takes the built-in entry name out. An entry that is not a function or
// method name, or the removal of one that is not built in, is an error, and
// leaves the table as it was.
func (t *Table) Set(s string) error {
	var extra []*entry
	extras := make(map[string]bool)
	var removed []string
	gone := make(map[string]bool)
	for text := range strings.SplitSeq(s, ",") {
		if text = strings.TrimSpace(text); text == "" {
			continue
		}
		drop := strings.HasPrefix(text, "-")
		if drop {
			text = strings.TrimSpace(text[1:])
		}
		e, err := parseEntry(text)
		if err != nil {
			return err
		}
		if drop {
			if !t.builtin[e.key] {
				return fmt.Errorf("%q is not a built-in entry of %s, so it cannot be taken out", text, t.flag)
			}
			if !gone[e.key] {
				removed = append(removed, e.key)
				gone[e.key] = true
			}
			continue
		}
		if !extras[e.key] {
			extra = append(extra, e)
			extras[e.key] = true
		}
	}
	slices.SortFunc(extra, func(a, b *entry) int { return strings.Compare(a.key, b.key) })
	pkgs := make(map[string]bool)
	for k := range t.builtin {
		addPkgs(pkgs, k)
	}
	for k := range extras {
		addPkgs(pkgs, k)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	slices.Sort(removed)
	t.extra, t.extras, t.pkgs = extra, extras, pkgs
	t.removed, t.gone = removed, gone
	return nil
}

// notation is the accepted spellings, for errors.
const notation = "want pkg/path.Func, pkg/path.Type.Method, (pkg/path.Type).Method or (*pkg/path.Type).Method"

// parseEntry parses one function or method name.
func parseEntry(text string) (*entry, error) {
	if strings.HasPrefix(text, "(") {
		return parseMethod(text)
	}
	if strings.ContainsAny(text, "()*[] \t") {
		return nil, fmt.Errorf("%q is not a function name (a method is (*pkg/path.Type).Method or pkg/path.Type.Method, a generic type is named without type parameters); %s", text, notation)
	}
	// The package path runs to some dot after its last slash; what
	// follows is a function or a type and a method. Both readings match
	// the same functions (Key spells them alike), so keep those that are
	// well formed.
	slash := strings.LastIndex(text, "/") + 1
	parts := strings.Split(text[slash:], ".")
	e := &entry{key: text}
	for _, n := range []int{1, 2} { // Func, Type.Method
		if len(parts) <= n || !allIdents(parts[len(parts)-n:]) {
			continue
		}
		nm := name{pkg: text[:slash] + strings.Join(parts[:len(parts)-n], "."), fn: parts[len(parts)-1]}
		if n == 2 {
			nm.recv = parts[len(parts)-2]
		}
		if knowledge.ValidPath(nm.pkg) {
			e.names = append(e.names, nm)
		}
	}
	if len(e.names) == 0 {
		return nil, fmt.Errorf("%q is not a function name; %s", text, notation)
	}
	return e, nil
}

// parseMethod parses "(pkg/path.Type).Method" or "(*pkg/path.Type).Method",
// the type perhaps with its type parameters, as types.Func.FullName spells a
// method of a generic type: "(*pkg/path.List[T]).Push".
func parseMethod(text string) (*entry, error) {
	bad := fmt.Errorf("%q is not a method name; %s", text, notation)
	recv, method, ok := strings.Cut(text[1:], ").")
	if !ok || !token.IsIdentifier(method) {
		return nil, bad
	}
	recv = strings.TrimPrefix(recv, "*")
	if i := strings.IndexByte(recv, '['); i >= 0 {
		if !strings.HasSuffix(recv, "]") {
			return nil, bad
		}
		recv = recv[:i]
	}
	dot := strings.LastIndex(recv, ".")
	if dot < 0 || strings.LastIndex(recv, "/") > dot || !token.IsIdentifier(recv[dot+1:]) || !knowledge.ValidPath(recv[:dot]) {
		return nil, bad
	}
	nm := name{pkg: recv[:dot], recv: recv[dot+1:], fn: method}
	return &entry{key: nm.pkg + "." + nm.recv + "." + nm.fn, names: []name{nm}}, nil
}

func allIdents(ss []string) bool {
	for _, s := range ss {
		if !token.IsIdentifier(s) {
			return false
		}
	}
	return true
}
