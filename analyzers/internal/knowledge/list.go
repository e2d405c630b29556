// Package knowledge holds every list of names queuecheck's checks consult:
// functions, methods, packages, path elements and words. Each list is a
// package-level [List] with a stable name, a doc line saying what the suite
// does with it, and its entries; the lists a user may need to change are
// analyzer flags (see [List.Flag]) in the notation of the function-list
// flags: a comma-separated list whose entries are added to the built-in
// ones, and "-entry" takes a built-in entry out.
//
// docs/checks/knowledge.md is generated from the lists (go test
// ./analyzers/internal/knowledge -update).
package knowledge

import (
	"flag"
	"fmt"
	"go/token"
	"slices"
	"strings"
	"sync"
)

// A Kind says what a list's entries name and how a lookup matches them.
type Kind int

const (
	// Funcs are functions and methods in the function-list notation,
	// "pkg/path.Func" and "pkg/path.Type.Method", matched whole.
	Funcs Kind = iota
	// Methods are method names, of any receiver, matched whole.
	Methods
	// Packages are import paths, matched whole.
	Packages
	// PackageTrees are import paths, matching the path and every path
	// below it.
	PackageTrees
	// PathElements are elements of an import path, matched whole.
	PathElements
	// Words are lower-case words, matching a name that contains one.
	Words
	// Suffixes are lower-case endings, matching a name that ends in one.
	Suffixes
	// Labels are lower-case names, matched whole.
	Labels
	// Types are named types, "pkg/path.Type", matched whole.
	Types
	// CasedWords are words, matching a name that contains one as written.
	CasedWords
	// Prefixes are beginnings of a function's full name as
	// types.Func.FullName spells it ("fmt.Print", "(*log.Logger)."),
	// matching a name that starts with one.
	Prefixes
	// TypeNames are names of types, of any package, matched whole.
	TypeNames
	// NamePrefixes are beginnings of a function's or method's name, as
	// written, matching a name that starts with one.
	NamePrefixes
)

var kindNames = [...]string{
	Funcs:        "functions",
	Methods:      "method names",
	Packages:     "import paths",
	PackageTrees: "import path trees",
	PathElements: "import path elements",
	Words:        "words",
	Suffixes:     "name endings",
	Labels:       "lower-case names",
	Types:        "types",
	CasedWords:   "words as written",
	Prefixes:     "full-name prefixes",
	TypeNames:    "type names",
	NamePrefixes: "name beginnings",
}

func (k Kind) String() string { return kindNames[k] }

// A List is a named list of names. Lookups read a map or a short slice
// built when the list is declared or its flag is set, and do not allocate.
// A List whose Flag is not "" is that flag's [flag.Value]; like any flag,
// it is set before analysis starts and only read after.
type List struct {
	Name string // stable, kebab-case: "message-reads"
	Doc  string // what the suite does with the list
	Kind Kind
	// Flag is the analyzer flag that changes the list, "CHECK.NAME", or "".
	// A Funcs list's flag is a calls.Table of the check, in the same
	// notation; any other list's flag is the List itself.
	Flag string

	builtin []string

	mu      sync.Mutex // guards changes for String
	changes []string   // as set: added entries, then "-" and removed ones
	entries []string   // in effect, built-in order then added ones
	set     map[string]bool
	types   map[[2]string]bool // a Types list's entries: package path, type name
}

// newList returns a list of the entries.
func newList(name string, kind Kind, flag, doc string, entries ...string) *List {
	l := &List{Name: name, Doc: doc, Kind: kind, Flag: flag, builtin: entries}
	for _, e := range entries {
		if err := l.check(e); err != nil {
			panic(fmt.Sprintf("knowledge: list %s: %v", name, err))
		}
	}
	l.apply(entries)
	all = append(all, l)
	return l
}

// all holds every list, in declaration order.
var all []*List

// All returns every list, in declaration order.
func All() []*List { return slices.Clone(all) }

// Builtin returns the built-in entries, in order.
func (l *List) Builtin() []string { return slices.Clone(l.builtin) }

// Entries returns the entries in effect, built-in ones first in their
// order, then the added ones. The caller must not modify it.
func (l *List) Entries() []string { return l.entries }

func (l *List) apply(entries []string) {
	l.entries = entries
	l.set = make(map[string]bool, len(entries))
	for _, e := range entries {
		l.set[e] = true
	}
	if l.Kind == Types {
		l.types = make(map[[2]string]bool, len(entries))
		for _, e := range entries {
			i := strings.LastIndexByte(e, '.')
			l.types[[2]string{e[:i], e[i+1:]}] = true
		}
	}
}

// HasType reports whether the type named name of the package at path is an
// entry of a Types list, without spelling "path.name".
func (l *List) HasType(path, name string) bool { return l.types[[2]string{path, name}] }

// Has reports whether s is an entry of the list.
func (l *List) Has(s string) bool { return l.set[s] }

// Match reports whether s matches an entry as the list's kind says: whole
// (Funcs, Methods, Packages, PathElements, Labels, Types, TypeNames), as the path or a
// path above it (PackageTrees), containing an entry (Words, CasedWords),
// ending in one (Suffixes) or starting with one (Prefixes, NamePrefixes).
// Words and endings are lower case; s is compared as given.
func (l *List) Match(s string) bool {
	switch l.Kind {
	case PackageTrees:
		for {
			if l.set[s] {
				return true
			}
			i := strings.LastIndexByte(s, '/')
			if i < 0 {
				return false
			}
			s = s[:i]
		}
	case Words, CasedWords:
		for _, w := range l.entries {
			if strings.Contains(s, w) {
				return true
			}
		}
		return false
	case Suffixes:
		for _, w := range l.entries {
			if strings.HasSuffix(s, w) {
				return true
			}
		}
		return false
	case Prefixes, NamePrefixes:
		for _, w := range l.entries {
			if strings.HasPrefix(s, w) {
				return true
			}
		}
		return false
	}
	return l.set[s]
}

// HasElement reports whether an element of the import path is an entry.
func (l *List) HasElement(path string) bool {
	for elem := range strings.SplitSeq(path, "/") {
		if l.set[elem] {
			return true
		}
	}
	return false
}

// String returns the changes set through the flag, comma-separated: the
// added entries, then the removed ones each after "-".
func (l *List) String() string {
	if l == nil {
		return ""
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.changes, ",")
}

// Set replaces the changes with the comma-separated list s: an entry is
// added (a leading "+" is allowed), and "-entry" removes a built-in entry.
// An entry not of the list's kind, or the removal of an entry that is not
// built in, is an error and leaves the list as it was.
func (l *List) Set(s string) error {
	var add, remove []string
	for text := range strings.SplitSeq(s, ",") {
		text = strings.TrimSpace(text)
		drop := strings.HasPrefix(text, "-")
		text = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(text, "-"), "+"))
		if text == "" {
			continue
		}
		if err := l.check(text); err != nil {
			return err
		}
		switch {
		case drop && !slices.Contains(l.builtin, text):
			return fmt.Errorf("%q is not a built-in entry of %s (%s), so it cannot be removed", text, l.Name, l.Kind)
		case drop:
			if !slices.Contains(remove, text) {
				remove = append(remove, text)
			}
		case !slices.Contains(l.builtin, text) && !slices.Contains(add, text):
			add = append(add, text)
		}
	}
	add = slices.DeleteFunc(add, func(e string) bool { return slices.Contains(remove, e) })
	slices.Sort(add)
	slices.Sort(remove)
	entries := slices.DeleteFunc(slices.Clone(l.builtin), func(e string) bool { return slices.Contains(remove, e) })
	entries = append(entries, add...)
	changes := slices.Clone(add)
	for _, r := range remove {
		changes = append(changes, "-"+r)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.changes = changes
	l.apply(entries)
	return nil
}

// check reports whether e can be an entry of the list.
func (l *List) check(e string) error {
	ok := true
	want := ""
	switch l.Kind {
	case Funcs:
		ok, want = validFunc(e), "pkg/path.Func or pkg/path.Type.Method"
	case Types:
		ok, want = validFunc(e) && strings.Count(e[strings.LastIndex(e, "/")+1:], ".") == 1, "pkg/path.Type"
	case CasedWords, TypeNames, NamePrefixes:
		ok, want = token.IsIdentifier(e), "a word"
	case Prefixes:
		ok, want = e != "" && !strings.ContainsAny(e, " \t,"), "the beginning of a function's full name"
	case Methods:
		ok, want = token.IsIdentifier(e), "a method name"
	case Packages, PackageTrees:
		ok, want = ValidPath(e), "an import path"
	case PathElements:
		ok, want = e != "" && ValidPath(e) && !strings.Contains(e, "/"), "an import path element"
	case Words, Suffixes, Labels:
		ok, want = e != "" && e == strings.ToLower(e) && !strings.ContainsAny(e, " \t,"), "a lower-case word"
	}
	if !ok {
		return fmt.Errorf("%q is not an entry of %s: want %s", e, l.Name, want)
	}
	return nil
}

// validFunc reports whether e reads as pkg/path.Func or
// pkg/path.Type.Method.
func validFunc(e string) bool {
	slash := strings.LastIndex(e, "/") + 1
	parts := strings.Split(e[slash:], ".")
	if len(parts) < 2 || !ValidPath(e[:slash]+parts[0]) {
		return false
	}
	for _, p := range parts[1:] {
		if !token.IsIdentifier(p) {
			return false
		}
	}
	return true
}

// ValidPath reports whether path could be an import path: non-empty
// elements separated by slashes, without blanks or the characters that
// start or end a name's other parts. calls.Table's entries use it too.
func ValidPath(path string) bool {
	if path == "" || strings.ContainsAny(path, " \t()*[]\\,") {
		return false
	}
	for elem := range strings.SplitSeq(path, "/") {
		if elem == "" || elem == "." || elem == ".." {
			return false
		}
	}
	return true
}

// Register makes l the flag of fs that its Flag names, for check, the
// analyzer that owns fs. It panics if l's Flag is not a flag of check, or is
// a function list's (whose flag is a calls.Table).
func (l *List) Register(fs *flag.FlagSet, check string) {
	name, ok := strings.CutPrefix(l.Flag, check+".")
	if !ok || l.Kind == Funcs {
		panic(fmt.Sprintf("knowledge: list %s has flag %q, not one of %s", l.Name, l.Flag, check))
	}
	fs.Var(l, name, l.Usage())
}

// Usage returns the usage line of l's flag.
func (l *List) Usage() string {
	return fmt.Sprintf("%s to add to the list %s, comma-separated; -ENTRY removes a built-in entry", l.Kind, l.Name)
}
