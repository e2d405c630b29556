package report

import (
	"flag"
	"fmt"
	"go/ast"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
)

// A Rule is one named reason a check stays silent about a candidate it
// looked at: a limit in force, a guard, a lock-step reply, a pool filled up
// front. Check is the check that decides it; Name is stable and kebab-case
// (the -why output, the corpus counts and the docs use it), distinct within
// the check; Doc is one line.
type Rule struct {
	Check string
	Name  string
	Doc   string
}

var registry struct {
	sync.Mutex
	rules []*Rule
}

// NewRule registers and returns the rule name of check. Checks declare
// their rules as package variables, so the registry holds every rule of
// every check linked into the program.
func NewRule(check, name, doc string) *Rule {
	r := &Rule{Check: check, Name: name, Doc: doc}
	registry.Lock()
	defer registry.Unlock()
	registry.rules = append(registry.rules, r)
	return r
}

// Rules returns every registered rule: the checks in the order of [Checks],
// each check's rules in the order they were registered.
func Rules() []*Rule {
	registry.Lock()
	defer registry.Unlock()
	rules := slices.Clone(registry.rules)
	slices.SortStableFunc(rules, func(a, b *Rule) int {
		return checkIndex(a.Check) - checkIndex(b.Check)
	})
	return rules
}

// RulesOf returns the rules of check, in the order they were registered.
func RulesOf(check string) []*Rule {
	return slices.DeleteFunc(Rules(), func(r *Rule) bool { return r.Check != check })
}

func checkIndex(check string) int {
	if i := slices.Index(Checks, check); i >= 0 {
		return i
	}
	return len(Checks)
}

// ignoreRules are the rules a check's directives decide: a finding a
// //queuecheck:ignore directive silenced.
var ignoreRules = func() map[string]*Rule {
	m := make(map[string]*Rule)
	for _, c := range Checks {
		m[c] = NewRule(c, "ignore-directive", "a //queuecheck:ignore "+c+" directive with a reason, on the line or the line above, silences the finding")
	}
	return m
}()

// A skipped is why queuecheck never reports in a file: 0 when it does.
type skipped int

const (
	skippedTest      skipped = iota + 1 // a _test.go file
	skippedGenerated                    // a generated file
	skippedSupport                      // test support: imports testing or a test framework, or in a package named so
)

// skipRules are, per check, the rules that say why it looked at no
// candidate in a file, by the reason the file is skipped.
var skipRules = func() map[string]map[skipped]*Rule {
	m := make(map[string]map[skipped]*Rule)
	for _, c := range Checks {
		m[c] = map[skipped]*Rule{
			skippedTest:      NewRule(c, "test-file", "the file is a _test.go file: tests run under no production load, so queuecheck looks at no candidate there"),
			skippedGenerated: NewRule(c, "generated-file", "the file is generated (a // Code generated … DO NOT EDIT. header): queuecheck looks at no candidate there, whose fix belongs in the generator"),
			skippedSupport:   NewRule(c, "test-support", "the file imports a test framework, or package testing in the signatures of at least half of its functions, or its package is named as test support (mocks, fakes, testutil): it runs under tests only, so queuecheck looks at no candidate there"),
		}
	}
	return m
}()

// hookRules are, per check, the rule that says why it reports nothing in a
// test hook of a production file.
var hookRules = func() map[string]*Rule {
	m := make(map[string]*Rule)
	for _, c := range Checks {
		m[c] = NewRule(c, "test-hook", "the function's signature uses package testing (only a test can call it, such as an option taking a testing.TB) in a file whose other functions' signatures mostly do not: a hook for tests in production code, whose findings are not reported; the rest of the file is")
	}
	return m
}()

// silenceSkipped says, at the package clause of each file queuecheck never
// reports in, the rule that skipped it, when -why asks about that line.
func (r *Reporter) silenceSkipped() {
	for _, f := range r.pass.Files {
		tf := r.pass.Fset.File(f.Pos())
		if why := r.pkg.skip[tf]; why != 0 {
			r.sayAtClause(f, skipRules[r.check][why])
		}
		for _, fd := range r.pkg.hooks[tf] {
			r.say(fd.Pos(), fd.Name.End(), hookRules[r.check], true)
		}
	}
}

// WhyKind is the kind of the diagnostics that say why a candidate was not
// reported: their category is CHECK/why.
const WhyKind = "why"

// IsWhy reports whether a diagnostic's category (CHECK/KIND, as a Reporter
// qualifies it) is that of a why-diagnostic, not a finding.
func IsWhy(category string) bool {
	return strings.HasSuffix(category, "/"+WhyKind)
}

// WhyMessagePrefix starts the message of every why-diagnostic:
// "not reported: RULE-NAME: DOC".
const WhyMessagePrefix = "not reported: "

// WhyFlagName is the name of the flag every check registers with [AddWhyFlag].
const WhyFlagName = "why"

// AddWhyFlag registers the check's -why flag in fs.
func AddWhyFlag(fs *flag.FlagSet) {
	fs.Var(new(WhyTarget), WhyFlagName, "`FILE:LINE` (FILE a path suffix) or all: report, as a CHECK/why diagnostic, the named rule that kept each candidate there from being a finding")
}

// A WhyTarget is the value of a check's -why flag: where to say why
// candidates were not reported. "" (the default) says nothing; "all" says it
// everywhere; FILE:LINE at that line of every file whose name is FILE or
// ends in "/FILE".
type WhyTarget struct {
	mu   sync.Mutex
	all  bool
	file string
	line int
}

func (w *WhyTarget) String() string {
	if w == nil {
		return ""
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case w.all:
		return "all"
	case w.file != "":
		return w.file + ":" + strconv.Itoa(w.line)
	}
	return ""
}

// Set parses "", "all" or FILE:LINE.
func (w *WhyTarget) Set(s string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.all, w.file, w.line = false, "", 0
	switch s {
	case "":
		return nil
	case "all":
		w.all = true
		return nil
	}
	i := strings.LastIndexByte(s, ':')
	if i <= 0 {
		return fmt.Errorf("want FILE:LINE or all, not %q", s)
	}
	line, err := strconv.Atoi(s[i+1:])
	if err != nil || line < 1 {
		return fmt.Errorf("want FILE:LINE with a line number from 1, not %q", s)
	}
	w.file, w.line = filepath.ToSlash(filepath.Clean(s[:i])), line
	return nil
}

// matches reports whether the target asks about position p.
func (w *WhyTarget) matches(p token.Position) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case w.all:
		return true
	case w.file == "" || p.Line != w.line:
		return false
	}
	name := filepath.ToSlash(p.Filename)
	return name == w.file || strings.HasSuffix(name, "/"+w.file)
}

// on reports whether the target asks about anything.
func (w *WhyTarget) on() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.all || w.file != ""
}

// trace, when set (by tests), is told of every rule that silenced a
// candidate, and where, whatever -why says.
var trace struct {
	sync.Mutex
	f func(r *Rule, at token.Position)
}

// SetTrace has every rule that silences a candidate reported to f, until
// the returned function is called. f may be called from several goroutines
// at once.
func SetTrace(f func(r *Rule, at token.Position)) (restore func()) {
	trace.Lock()
	defer trace.Unlock()
	old := trace.f
	trace.f = f
	return func() {
		trace.Lock()
		defer trace.Unlock()
		trace.f = old
	}
}

// whyTarget returns the -why flag of the reporter's check when it asks
// about anything, or nil.
func (r *Reporter) whyTarget() *WhyTarget {
	if f := r.pass.Analyzer.Flags.Lookup(WhyFlagName); f != nil {
		if w, ok := f.Value.(*WhyTarget); ok && w.on() {
			return w
		}
	}
	return nil
}

// Silence records that rule kept the candidate at node from being a
// finding. When the check's -why flag asks about node's line, it reports a
// diagnostic of category CHECK/why at node: "not reported: RULE-NAME: DOC".
// No directive silences these diagnostics or is used by them, and the
// drivers count them as no finding. A rule decided more than once for the
// same node is said once.
func (r *Reporter) Silence(node ast.Node, rule *Rule) {
	r.SilenceAt(node.Pos(), node.End(), rule)
}

// SilenceAt is [Reporter.Silence] for the range from pos to end.
func (r *Reporter) SilenceAt(pos, end token.Pos, rule *Rule) {
	if rule == nil || !pos.IsValid() || r.SkipPos(pos) {
		return
	}
	r.say(pos, end, rule, true)
}

// say records rule at pos, in any file: [Reporter.SilenceAt] without the
// test of a skipped file. Unless all is set, -why all does not say it.
func (r *Reporter) say(pos, end token.Pos, rule *Rule, all bool) {
	trace.Lock()
	f := trace.f
	trace.Unlock()
	if f != nil {
		f(rule, r.pass.Fset.Position(pos))
	}
	w := r.whyTarget()
	if w == nil || !w.matches(r.pass.Fset.Position(pos)) || !all && w.String() == "all" {
		return
	}
	key := silence{pos, rule}
	if r.said[key] {
		return
	}
	if r.said == nil {
		r.said = make(map[silence]bool)
	}
	r.said[key] = true
	r.pass.Report(analysis.Diagnostic{
		Pos: pos, End: end,
		Category: r.check + "/" + WhyKind,
		URL:      URL(r.check) + "#why-a-candidate-is-not-reported",
		Message:  WhyMessagePrefix + rule.Name + ": " + rule.Doc,
	})
}

// SilencePackage records that rule kept the check from looking at the
// package at all (it imports nothing a candidate needs, it has nothing
// that could queue): every candidate there is silenced by it. The rule is
// said at the package clause of each file the check reports in when -why
// asks about that line (FILE:N, N the line of the package clause): saying
// it at every line asked about would answer for candidates that are not
// there, and -why all, which counts candidates, does not say it.
func (r *Reporter) SilencePackage(files []*ast.File, rule *Rule) {
	for _, f := range files {
		if !r.SkipPos(f.Package) {
			r.sayAtClause(f, rule)
		}
	}
}

// sayAtClause says rule at the package clause of f when -why asks about
// its line by FILE:LINE: a rule for the whole file or package.
func (r *Reporter) sayAtClause(f *ast.File, rule *Rule) {
	r.say(f.Package, f.Name.End(), rule, false)
}

// A silence is a rule said at a position.
type silence struct {
	pos  token.Pos
	rule *Rule
}
