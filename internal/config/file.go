// Package config reads queuecheck's configuration file, queuecheck.toml, and
// makes the checks run with it: standalone, under go vet -vettool and in the
// golangci-lint plugin alike.
//
// # The file
//
// A queuecheck.toml holds the settings a team adds to the suite, in the
// repository, beside the code they are about:
//
//	checks = ["inherit", "-waittiming"]   # which checks report (staticcheck's notation)
//
//	[chansize]                            # a check's flags, by the flag's name
//	maxbytes = 4194304
//
//	[resolverpool]
//	resolve = ["inherit", "example.com/dns.Lookup"]
//
//	[overrides."internal/gen/..."]        # per-path overrides, relative to the file
//	checks = ["inherit", "-unboundedqueue"]
//
//	[overrides."cmd/loadgen".chansize]
//	max = 1000000
//
// The file is TOML, as staticcheck's staticcheck.conf is, read by
// github.com/BurntSushi/toml (which staticcheck and golangci-lint also use),
// so its syntax errors name a line and every value has a type.
//
// # Which settings a package gets
//
// A package's settings are found by walking up from its directory to its
// module's root (the directory of go.mod), collecting every queuecheck.toml
// on the way. The files apply outermost first, each file's top level before
// its overrides (in the file's order), so the nearest file, and in it the
// last matching override, wins per key. A list may contain "inherit", which
// stands for the value the key had before this file: the enclosing files'
// or, at the outermost, the default. checks starts from every check on;
// a checks list without "inherit" replaces it, as in staticcheck.
//
// Settings given where the suite runs (flags on the command line, settings
// in .golangci.yml) override the files'. A check that is off in a package
// still runs there (other packages may need its facts) but reports nothing.
package config

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
	"golang.org/x/tools/go/analysis"
)

// FileName is the name of the configuration file.
const FileName = "queuecheck.toml"

// The keys of a file's top level besides the checks' tables.
const (
	keyChecks    = "checks"
	keyOverrides = "overrides"
	inherit      = "inherit"
)

// A file is one parsed queuecheck.toml.
type file struct {
	path   string // as errors and dumps name it
	dir    string
	layers []*layer // the top level, then each override in the file's order
}

// A layer is a set of settings of one file: its top level, or one override.
type layer struct {
	pattern string   // "" for the top level; else the paths it applies to
	checks  *setting // nil when not set
	flags   map[string]*setting
}

// A setting is the value a file gives one key.
type setting struct {
	key   string   // as the file spells it: "chansize.maxbytes"
	list  []string // the elements of a list value, "inherit" among them
	text  string   // a value that is not a list, as a flag takes it
	file  string
	line  int
	multi bool // the value is a list
}

// An Error is a bad key or value of a configuration file.
type Error struct {
	File string
	Line int    // 0 when unknown
	Key  string // "" for a syntax error
	Msg  string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Key != "" {
		b.WriteString(e.Key + ": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// parser reads one file.
type parser struct {
	path      string
	md        toml.MetaData
	analyzers []*analysis.Analyzer
	validate  func(f *flag.Flag, text string) error
	errs      []error
}

// parseFile parses data, the content of the file at path, against the
// checks of as. validate tries a value on a flag.
func parseFile(path string, data []byte, as []*analysis.Analyzer, validate func(*flag.Flag, string) error) (*file, error) {
	var top map[string]toml.Primitive
	md, err := toml.Decode(string(data), &top)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, &Error{File: path, Line: pe.Position.Line, Msg: pe.Message}
		}
		return nil, &Error{File: path, Msg: err.Error()}
	}
	p := &parser{path: path, md: md, analyzers: as, validate: validate}
	f := &file{path: path}
	base := &layer{flags: map[string]*setting{}}
	f.layers = append(f.layers, base)
	for _, key := range p.order(top, nil) {
		prim := top[key]
		switch {
		case key == keyChecks:
			base.checks = p.checks(prim, toml.Key{key})
		case key == keyOverrides:
			f.layers = append(f.layers, p.overrides(prim)...)
		case p.analyzer(key) != nil:
			p.checkTable(base, p.analyzer(key), prim, toml.Key{key})
		default:
			p.errorf(prim, toml.Key{key}, "unknown key%s", suggest(key, p.topKeys()))
		}
	}
	if len(p.errs) > 0 {
		return nil, errors.Join(p.errs...)
	}
	return f, nil
}

// order returns the keys of a table in the order the file has them (prefix
// is the table's key), so that errors come in the order of the file and
// later overrides win.
func (p *parser) order(table map[string]toml.Primitive, prefix toml.Key) []string {
	var keys []string
	seen := make(map[string]bool)
	for _, k := range p.md.Keys() {
		if len(k) > len(prefix) && slices.Equal(k[:len(prefix)], prefix) {
			name := k[len(prefix)]
			if _, ok := table[name]; ok && !seen[name] {
				seen[name] = true
				keys = append(keys, name)
			}
		}
	}
	for name := range table { // defensive: a key Keys did not list
		if !seen[name] {
			keys = append(keys, name)
		}
	}
	return keys
}

func (p *parser) analyzer(name string) *analysis.Analyzer {
	for _, a := range p.analyzers {
		if a.Name == name {
			return a
		}
	}
	return nil
}

func (p *parser) topKeys() []string {
	keys := []string{keyChecks, keyOverrides}
	for _, a := range p.analyzers {
		keys = append(keys, a.Name)
	}
	return keys
}

func (p *parser) checkNames() []string {
	var names []string
	for _, a := range p.analyzers {
		names = append(names, a.Name)
	}
	return names
}

// failing is a TOML value that cannot be decoded: decoding a primitive into
// it yields an error that carries the primitive's line.
type failing struct{}

func (failing) UnmarshalTOML(any) error { return errors.New("") }

// line returns the line of the key prim was read from, or, for a table the
// file never names in a header (a dotted key's parent), that of its first
// key.
func (p *parser) line(prim toml.Primitive, key toml.Key) int {
	var pe toml.ParseError
	if errors.As(p.md.PrimitiveDecode(prim, failing{}), &pe) && pe.Position.Line > 0 {
		return pe.Position.Line
	}
	var table map[string]toml.Primitive
	if p.md.PrimitiveDecode(prim, &table) == nil {
		for _, k := range p.order(table, key) {
			if l := p.line(table[k], append(slices.Clip(key), k)); l > 0 {
				return l
			}
		}
	}
	return 0
}

func (p *parser) errorf(prim toml.Primitive, key toml.Key, format string, args ...any) {
	p.errs = append(p.errs, &Error{File: p.path, Line: p.line(prim, key), Key: dotted(key), Msg: fmt.Sprintf(format, args...)})
}

// dotted spells a key as people write it: chansize.maxbytes,
// overrides."cmd/x".checks.
func dotted(key toml.Key) string { return key.String() }

// table decodes prim as a table, or reports that it is not one.
func (p *parser) table(prim toml.Primitive, key toml.Key, what string) (map[string]toml.Primitive, bool) {
	// Decoding a value that is no table into a map succeeds, leaving it
	// nil: look at the value first.
	var raw any
	if err := p.md.PrimitiveDecode(prim, &raw); err != nil {
		p.errorf(prim, key, "%v", err)
		return nil, false
	}
	var table map[string]toml.Primitive
	if _, ok := raw.(map[string]any); !ok {
		p.errorf(prim, key, "want a table of %s, not %s", what, strings.ToLower(p.md.Type(key...)))
		return nil, false
	}
	if err := p.md.PrimitiveDecode(prim, &table); err != nil {
		p.errorf(prim, key, "%v", err)
		return nil, false
	}
	return table, true
}

// checks reads a checks list.
func (p *parser) checks(prim toml.Primitive, key toml.Key) *setting {
	var raw any
	if err := p.md.PrimitiveDecode(prim, &raw); err != nil {
		p.errorf(prim, key, "%v", err)
		return nil
	}
	elems, ok := raw.([]any)
	if !ok {
		p.errorf(prim, key, `want a list of check names, such as ["inherit", "-chansize"]`)
		return nil
	}
	s := &setting{key: dotted(key), file: p.path, line: p.line(prim, key), multi: true}
	names := p.checkNames()
	for _, e := range elems {
		name, ok := e.(string)
		if !ok {
			p.errorf(prim, key, "want check names, not %v", e)
			return nil
		}
		bare := strings.TrimPrefix(name, "-")
		switch {
		case name == inherit, bare == "all", bare == "*", slices.Contains(names, bare):
		default:
			p.errorf(prim, key, "unknown check %q%s", bare, suggest(bare, append(names, inherit, "all")))
			return nil
		}
		s.list = append(s.list, name)
	}
	return s
}

// overrides reads the table of per-path overrides.
func (p *parser) overrides(prim toml.Primitive) []*layer {
	key := toml.Key{keyOverrides}
	table, ok := p.table(prim, key, `overrides by path, such as [overrides."internal/gen/..."]`)
	if !ok {
		return nil
	}
	var layers []*layer
	for _, pattern := range p.order(table, key) {
		okey := toml.Key{keyOverrides, pattern}
		if err := checkPattern(pattern); err != nil {
			p.errorf(table[pattern], okey, "%v", err)
			continue
		}
		body, ok := p.table(table[pattern], okey, "settings")
		if !ok {
			continue
		}
		l := &layer{pattern: pattern, flags: map[string]*setting{}}
		for _, k := range p.order(body, okey) {
			kkey := append(slices.Clip(okey), k)
			switch {
			case k == keyChecks:
				l.checks = p.checks(body[k], kkey)
			case p.analyzer(k) != nil:
				p.checkTable(l, p.analyzer(k), body[k], kkey)
			default:
				p.errorf(body[k], kkey, "unknown key%s", suggest(k, append([]string{keyChecks}, p.checkNames()...)))
			}
		}
		layers = append(layers, l)
	}
	return layers
}

// checkPattern reports what is wrong with a pattern of paths: it is a
// slash-separated path relative to the file's directory, each element of
// which may be a glob (path.Match), and whose last may be "..." (the
// directory and everything below it).
func checkPattern(pattern string) error {
	if pattern == "" || strings.HasPrefix(pattern, "/") || strings.Contains(pattern, `\`) {
		return fmt.Errorf("want a slash-separated path relative to the file's directory, such as \"internal/gen/...\"")
	}
	elems := strings.Split(pattern, "/")
	for i, e := range elems {
		switch {
		case e == "..." && i == len(elems)-1:
		case e == "" || e == "." || e == "..":
			return fmt.Errorf("path %q has an empty, \".\" or \"..\" element", pattern)
		default:
			if _, err := path.Match(e, ""); err != nil {
				return fmt.Errorf("path %q: element %q: %v", pattern, e, err)
			}
		}
	}
	return nil
}

// matches reports whether pattern (see checkPattern) matches rel, a
// slash-separated directory relative to the pattern's file ("." for its
// own).
func matches(pattern, rel string) bool {
	var elems []string
	if rel != "." {
		elems = strings.Split(rel, "/")
	}
	pats := strings.Split(pattern, "/")
	for i, pat := range pats {
		if pat == "..." && i == len(pats)-1 {
			return true
		}
		if i >= len(elems) {
			return false
		}
		if ok, _ := path.Match(pat, elems[i]); !ok {
			return false
		}
	}
	return len(pats) == len(elems)
}

// checkTable reads the table of a check's flags into l.
func (p *parser) checkTable(l *layer, a *analysis.Analyzer, prim toml.Primitive, key toml.Key) {
	table, ok := p.table(prim, key, a.Name+"'s flags")
	if !ok {
		return
	}
	for _, name := range p.order(table, key) {
		fkey := append(slices.Clip(key), name)
		f := a.Flags.Lookup(name)
		if f == nil {
			var names []string
			a.Flags.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
			p.errorf(table[name], fkey, "%s has no flag %q%s (queuecheck -explain %s lists them)", a.Name, name, suggest(name, names), a.Name)
			continue
		}
		s := p.value(table[name], fkey)
		if s == nil {
			continue
		}
		text := s.text
		if s.multi {
			text = strings.Join(slices.DeleteFunc(slices.Clone(s.list), func(e string) bool { return e == inherit }), ",")
		}
		if err := p.validate(f, text); err != nil {
			p.errorf(table[name], fkey, "invalid value %q: %v", text, err)
			continue
		}
		l.flags[a.Name+"."+f.Name] = s
	}
}

// value reads a flag's value: a string, a number, a boolean, or a list of
// those, as the command line would give it.
func (p *parser) value(prim toml.Primitive, key toml.Key) *setting {
	var raw any
	if err := p.md.PrimitiveDecode(prim, &raw); err != nil {
		p.errorf(prim, key, "%v", err)
		return nil
	}
	s := &setting{key: dotted(key), file: p.path, line: p.line(prim, key)}
	if elems, ok := raw.([]any); ok {
		s.multi = true
		for i, e := range elems {
			text, err := scalar(e)
			if err != nil {
				p.errorf(prim, key, "list element %d: %v", i+1, err)
				return nil
			}
			s.list = append(s.list, text)
		}
		return s
	}
	text, err := scalar(raw)
	if err != nil {
		p.errorf(prim, key, "%v", err)
		return nil
	}
	s.text = text
	return s
}

// scalar returns the flag text of a TOML string, integer, float or boolean.
func scalar(v any) (string, error) {
	switch v := v.(type) {
	case string:
		return v, nil
	case int64:
		return strconv.FormatInt(v, 10), nil
	case bool:
		return strconv.FormatBool(v), nil
	case float64:
		// 4e6 is a float in TOML; a whole number is written as an integer
		// so that integer flags take it.
		if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
			return strconv.FormatInt(int64(v), 10), nil
		}
		return strconv.FormatFloat(v, 'g', -1, 64), nil
	case []any:
		return "", errors.New("a list holds strings, numbers or booleans, not lists")
	case map[string]any:
		return "", errors.New("want a string, number, boolean or list, not a table")
	}
	return "", fmt.Errorf("want a string, number, boolean or list, not %T", v)
}

// suggest returns ", did you mean X?" for the name of names nearest to
// name, when one is near enough to be a misspelling, else "".
func suggest(name string, names []string) string {
	best, bestDist := "", 0
	for _, n := range names {
		d := distance(strings.ToLower(name), strings.ToLower(n))
		if best == "" || d < bestDist {
			best, bestDist = n, d
		}
	}
	if best != "" && bestDist <= max(1, len(best)/3) {
		return fmt.Sprintf("; did you mean %s?", best)
	}
	return ""
}

// distance is the Levenshtein distance of a and b.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
