package config

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"go/ast"
	"go/token"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
)

// A Suite is the configuration of a set of checks: it finds and reads the
// files, says what settings a package gets, and sets the checks' flags to
// them while a check runs on the package.
//
// Analyzer flags are process-wide, so a process that analyzes packages with
// different settings (standalone, golangci-lint) runs a check on a package
// only while the flags hold that package's settings: checks on packages with
// the same settings run in parallel, and the flags change between them.
type Suite struct {
	analyzers []*analysis.Analyzer

	// flagsMu guards the values of the checks' flags: held for reading while
	// a check runs, for writing while they change.
	flagsMu sync.RWMutex
	current string // the values the flags hold (see values), "" unknown

	mu        sync.Mutex
	files     map[string]*file      // by directory; nil: the directory has none
	fileErrs  map[string]error      // by directory
	dirs      map[string]*Effective // by package directory
	overrides map[string]string     // "CHECK.FLAG": text given where the suite runs
	only      string                // the one file to read (-config), "" to look for them
	absolute  bool                  // name files by absolute paths

	prepare sync.Once
	before  func() // run once, before the first package is analyzed
}

// UseFile makes name the configuration of every package, instead of the
// files found from its directory; its overrides' paths are relative to its
// directory.
func (s *Suite) UseFile(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.only = name
}

// AbsoluteNames makes errors and dumps name files by their absolute paths,
// for a process whose working directory the user did not choose (go vet
// runs the vet tool in the package's directory).
func (s *Suite) AbsoluteNames() { s.absolute = true }

// BeforeFirstRun arranges for f to run once, before a wrapped check first
// runs: under go vet, the flags the command line set are known only then.
func (s *Suite) BeforeFirstRun(f func()) { s.before = f }

// Invalidate forgets what the flags hold, after something other than s set
// them.
func (s *Suite) Invalidate() {
	s.flagsMu.Lock()
	defer s.flagsMu.Unlock()
	s.current = ""
}

// Same reports whether a and b set the checks' flags alike and turn on the
// same checks.
func (s *Suite) Same(a, b *Effective) bool {
	_, _, ka := s.values(a)
	_, _, kb := s.values(b)
	return ka == kb && maps.Equal(a.Enabled, b.Enabled)
}

// New returns the configuration of the checks as.
func New(as []*analysis.Analyzer) *Suite {
	return &Suite{
		analyzers: as,
		files:     make(map[string]*file),
		fileErrs:  make(map[string]error),
		dirs:      make(map[string]*Effective),
		overrides: make(map[string]string),
	}
}

// Override makes text the value of the flag CHECK.FLAG everywhere, over the
// files': a flag set on the command line, a setting of .golangci.yml.
func (s *Suite) Override(name, text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.overrides[name] = text
}

// ClearOverrides removes the overrides of check's flags.
func (s *Suite) ClearOverrides(check string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k := range s.overrides {
		if strings.HasPrefix(k, check+".") {
			delete(s.overrides, k)
		}
	}
}

// An Effective configuration is what one package directory gets.
type Effective struct {
	Dir     string
	Files   []string        // the files that apply, outermost first
	Enabled map[string]bool // by check name
	// Checks says where the checks setting in effect was made; nil when
	// none was (every check on).
	Checks *Source
	// Flags are the flags the files set, by "CHECK.FLAG".
	Flags map[string]Source
}

// A Source is a value and where it was set.
type Source struct {
	Text string
	File string
	Line int
}

// ForDir returns the configuration of the package in dir.
func (s *Suite) ForDir(dir string) (*Effective, error) {
	dir = filepath.Clean(dir)
	s.mu.Lock()
	e, ok := s.dirs[dir]
	s.mu.Unlock()
	if ok {
		return e, nil
	}
	var chain []*file // nearest first
	s.mu.Lock()
	only := s.only
	s.mu.Unlock()
	if only != "" {
		f, err := s.readFile(only)
		if err != nil {
			return nil, err
		}
		chain = append(chain, f)
	}
	for d := dir; only == ""; {
		f, err := s.fileIn(d)
		if err != nil {
			return nil, err
		}
		if f != nil {
			chain = append(chain, f)
		}
		if isModuleRoot(d) {
			break
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	slices.Reverse(chain)
	e = s.resolve(dir, chain)
	s.mu.Lock()
	s.dirs[dir] = e
	s.mu.Unlock()
	return e, nil
}

func isModuleRoot(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "go.mod"))
	return err == nil
}

// fileIn returns the parsed configuration file of dir, nil if it has none.
func (s *Suite) fileIn(dir string) (*file, error) {
	s.mu.Lock()
	f, ok := s.files[dir]
	err := s.fileErrs[dir]
	s.mu.Unlock()
	if ok || err != nil {
		return f, err
	}
	name := filepath.Join(dir, FileName)
	data, rerr := os.ReadFile(name)
	switch {
	case rerr == nil:
		f, err = parseFile(s.displayName(name), data, s.analyzers, s.validate)
	case !os.IsNotExist(rerr):
		err = rerr
	}
	if f != nil {
		f.dir = dir
	}
	s.mu.Lock()
	s.files[dir], s.fileErrs[dir] = f, err
	s.mu.Unlock()
	return f, err
}

// readFile reads the file name, which must exist.
func (s *Suite) readFile(name string) (*file, error) {
	abs, err := filepath.Abs(name)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	f, ok := s.files[abs]
	err = s.fileErrs[abs]
	s.mu.Unlock()
	if ok || err != nil {
		return f, err
	}
	data, err := os.ReadFile(abs)
	if err == nil {
		f, err = parseFile(s.displayName(abs), data, s.analyzers, s.validate)
	}
	if f != nil {
		f.dir = filepath.Dir(abs)
	}
	s.mu.Lock()
	s.files[abs], s.fileErrs[abs] = f, err
	s.mu.Unlock()
	return f, err
}

// displayName shortens name to a path relative to the working directory
// when it lies below it, as the findings' file names are.
func (s *Suite) displayName(name string) string {
	if s.absolute {
		return name
	}
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, name); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return name
}

// validate tries text on flag f, restoring its value after.
func (s *Suite) validate(f *flag.Flag, text string) error {
	s.flagsMu.Lock()
	defer s.flagsMu.Unlock()
	old := f.Value.String()
	if old == text {
		return nil
	}
	err := f.Value.Set(text)
	if rerr := f.Value.Set(old); rerr != nil && err == nil {
		err = fmt.Errorf("restoring %q: %v", old, rerr)
	}
	return err
}

// resolve merges the files of chain (outermost first) for dir.
func (s *Suite) resolve(dir string, chain []*file) *Effective {
	e := &Effective{Dir: dir, Enabled: make(map[string]bool), Flags: make(map[string]Source)}
	for _, a := range s.analyzers {
		e.Enabled[a.Name] = true
	}
	for _, f := range chain {
		e.Files = append(e.Files, f.path)
		rel, err := filepath.Rel(f.dir, dir)
		if err != nil {
			continue
		}
		rel = filepath.ToSlash(rel)
		for _, l := range f.layers {
			if l.pattern != "" && !matches(l.pattern, rel) {
				continue
			}
			if l.checks != nil {
				e.Enabled = s.applyChecks(e.Enabled, l.checks.list)
				e.Checks = &Source{Text: enabledList(s.analyzers, e.Enabled), File: l.checks.file, Line: l.checks.line}
			}
			for _, name := range slices.Sorted(maps.Keys(l.flags)) {
				st := l.flags[name]
				text := st.text
				if st.multi {
					var parts []string
					for _, el := range st.list {
						if el == inherit {
							if prev := s.inherited(e, name); prev != "" {
								parts = append(parts, prev)
							}
							continue
						}
						parts = append(parts, el)
					}
					text = strings.Join(parts, ",")
				}
				e.Flags[name] = Source{Text: text, File: st.file, Line: st.line}
			}
		}
	}
	return e
}

// inherited returns the value flag name has before the setting being
// applied: an enclosing setting's, else the default.
func (s *Suite) inherited(e *Effective, name string) string {
	if src, ok := e.Flags[name]; ok {
		return src.Text
	}
	if f := s.flag(name); f != nil {
		return f.DefValue
	}
	return ""
}

// applyChecks evaluates a checks list over the checks enabled before it.
func (s *Suite) applyChecks(prev map[string]bool, list []string) map[string]bool {
	next := make(map[string]bool)
	for _, a := range s.analyzers {
		next[a.Name] = false
	}
	for _, el := range list {
		on := !strings.HasPrefix(el, "-")
		name := strings.TrimPrefix(el, "-")
		switch name {
		case inherit:
			maps.Copy(next, prev)
		case "all", "*":
			for k := range next {
				next[k] = on
			}
		default:
			next[name] = on
		}
	}
	return next
}

func enabledList(as []*analysis.Analyzer, enabled map[string]bool) string {
	var on []string
	for _, a := range as {
		if enabled[a.Name] {
			on = append(on, a.Name)
		}
	}
	return strings.Join(on, ",")
}

// flag returns the flag CHECK.FLAG.
func (s *Suite) flag(name string) *flag.Flag {
	check, fname, _ := strings.Cut(name, ".")
	for _, a := range s.analyzers {
		if a.Name == check {
			return a.Flags.Lookup(fname)
		}
	}
	return nil
}

// values returns the text of every flag of the checks for e: an override,
// else the files' value, else the default. Its encoding compares equal for
// equal values.
func (s *Suite) values(e *Effective) (names []string, texts map[string]string, key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	texts = make(map[string]string)
	var b strings.Builder
	for _, a := range s.analyzers {
		a.Flags.VisitAll(func(f *flag.Flag) {
			name := a.Name + "." + f.Name
			text := f.DefValue
			if src, ok := e.Flags[name]; ok {
				text = src.Text
			}
			if o, ok := s.overrides[name]; ok {
				text = o
			}
			names = append(names, name)
			texts[name] = text
			fmt.Fprintf(&b, "%s=%q\n", name, text)
		})
	}
	return names, texts, b.String()
}

// Apply sets the checks' flags to e's values, for a process that analyzes
// one configuration only.
func (s *Suite) Apply(e *Effective) error {
	s.flagsMu.Lock()
	defer s.flagsMu.Unlock()
	return s.set(e)
}

// set sets the flags to e's values; flagsMu is held for writing.
func (s *Suite) set(e *Effective) error {
	names, texts, key := s.values(e)
	if key == s.current {
		return nil
	}
	s.current = ""
	for _, name := range names {
		f := s.flag(name)
		if f.Value.String() == texts[name] {
			continue // keeps what a function table learned
		}
		if err := f.Value.Set(texts[name]); err != nil {
			src := e.Flags[name]
			return &Error{File: src.File, Line: src.Line, Key: name, Msg: fmt.Sprintf("invalid value %q: %v", texts[name], err)}
		}
	}
	s.current = key
	return nil
}

// hold sets the flags to e's values, or waits until they hold them, and
// returns with them held for reading; the caller calls the function
// returned when it no longer reads them.
func (s *Suite) hold(e *Effective) (release func(), err error) {
	_, _, want := s.values(e)
	for {
		s.flagsMu.RLock()
		if s.current == want {
			return s.flagsMu.RUnlock, nil
		}
		s.flagsMu.RUnlock()
		s.flagsMu.Lock()
		err := s.set(e)
		s.flagsMu.Unlock()
		if err != nil {
			return nil, err
		}
	}
}

// Wrap returns a copy of a that runs on each package with the flags set to
// the package's configuration, and reports nothing in a package where the
// configuration turns a off (a still runs there: other packages may need
// its facts).
func (s *Suite) Wrap(a *analysis.Analyzer) *analysis.Analyzer {
	w := *a
	w.Run = func(pass *analysis.Pass) (any, error) {
		s.prepare.Do(func() {
			if s.before != nil {
				s.before()
			}
		})
		e, err := s.ForDir(PackageDir(pass))
		if err != nil {
			return nil, err
		}
		if !e.Enabled[a.Name] {
			quiet := *pass
			quiet.Report = func(analysis.Diagnostic) {}
			pass = &quiet
		}
		release, err := s.hold(e)
		if err != nil {
			return nil, err
		}
		defer release()
		return a.Run(pass)
	}
	return &w
}

// WrapAll wraps each of as.
func (s *Suite) WrapAll(as []*analysis.Analyzer) []*analysis.Analyzer {
	var ws []*analysis.Analyzer
	for _, a := range as {
		ws = append(ws, s.Wrap(a))
	}
	return ws
}

// PackageDir returns the directory of pass's package: that of most of its
// files, as positions name them (a cgo package's generated files are in
// the build cache, but //line directives name their sources).
func PackageDir(pass *analysis.Pass) string {
	return DirOf(pass.Fset, pass.Files)
}

// DirOf returns the directory of the package of files.
func DirOf(fset *token.FileSet, files []*ast.File) string {
	count := make(map[string]int)
	var best string
	for _, f := range files {
		dir := filepath.Dir(fset.Position(f.Pos()).Filename)
		count[dir]++
		if best == "" || count[dir] > count[best] {
			best = dir
		}
	}
	return best
}

// Dump writes e as a queuecheck.toml would say it, every flag with its
// value and where it comes from.
func (s *Suite) Dump(w io.Writer, e *Effective, header string) {
	fmt.Fprintf(w, "# %s\n", header)
	if len(e.Files) == 0 {
		fmt.Fprintf(w, "# no %s between here and the module root\n", FileName)
	} else {
		fmt.Fprintf(w, "# from %s\n", strings.Join(e.Files, ", "))
	}
	var on []string
	for _, a := range s.analyzers {
		if e.Enabled[a.Name] {
			on = append(on, fmt.Sprintf("%q", a.Name))
		}
	}
	checksFrom := "default"
	if e.Checks != nil {
		checksFrom = fmt.Sprintf("%s:%d", e.Checks.File, e.Checks.Line)
	}
	fmt.Fprintf(w, "checks = [%s]  # %s\n", strings.Join(on, ", "), checksFrom)
	s.mu.Lock()
	overrides := maps.Clone(s.overrides)
	s.mu.Unlock()
	for _, a := range s.analyzers {
		fmt.Fprintf(w, "\n[%s]\n", a.Name)
		a.Flags.VisitAll(func(f *flag.Flag) {
			name := a.Name + "." + f.Name
			text, from := f.DefValue, "default"
			if src, ok := e.Flags[name]; ok {
				text, from = src.Text, fmt.Sprintf("%s:%d", src.File, src.Line)
			}
			if o, ok := overrides[name]; ok {
				text, from = o, "command line"
			}
			fmt.Fprintf(w, "%s = %s  # %s\n", f.Name, tomlValue(f, text), from)
		})
	}
}

// tomlValue spells a flag's text as a TOML value: a boolean or number as
// it is, a comma-separated list as a list, anything else as a string.
func tomlValue(f *flag.Flag, text string) string {
	type boolFlag interface{ IsBoolFlag() bool }
	if b, ok := f.Value.(boolFlag); ok && b.IsBoolFlag() {
		return text
	}
	if g, ok := f.Value.(flag.Getter); ok {
		switch g.Get().(type) {
		case int, int64, uint, uint64, float64:
			return text
		}
	}
	if strings.Contains(f.Usage, "comma-separated") || strings.Contains(text, ",") {
		var elems []string
		for e := range strings.SplitSeq(text, ",") {
			if e = strings.TrimSpace(e); e != "" {
				elems = append(elems, fmt.Sprintf("%q", e))
			}
		}
		return "[" + strings.Join(elems, ", ") + "]"
	}
	return fmt.Sprintf("%q", text)
}

// Fingerprint returns a hash of every configuration file of the module
// around dir (the directory of the nearest go.mod and below, not into
// nested modules, testdata, vendor or hidden directories): what go vet's
// cache must see, since it keys a package's results by the vet tool's
// identity and flags but not by files outside the package. It is nil when
// there are none.
func Fingerprint(dir string) []byte {
	root := dir
	for d := dir; ; {
		if isModuleRoot(d) {
			root = d
			break
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	h := sha256.New()
	var names []string
	// An unreadable directory is skipped: the files that can be read still
	// key the cache.
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			base := d.Name()
			if p != root && (base == "testdata" || base == "vendor" || strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_") || isModuleRoot(p)) {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Name() == FileName {
			names = append(names, p)
		}
		return nil
	})
	if len(names) == 0 {
		return nil
	}
	slices.Sort(names)
	for _, name := range names {
		data, err := os.ReadFile(name)
		rel, _ := filepath.Rel(root, name)
		fmt.Fprintf(h, "%s\x00%d\x00", filepath.ToSlash(rel), len(data))
		if err == nil {
			h.Write(data)
		}
	}
	return h.Sum(nil)
}
