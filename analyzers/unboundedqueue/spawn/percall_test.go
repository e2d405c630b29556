package spawn_test

import (
	"fmt"
	"go/types"
	"maps"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/queuecheck/queuecheck/analyzers/internal/fixtest"
	"github.com/queuecheck/queuecheck/analyzers/unboundedqueue/spawn"
)

// TestPerCallFacts checks the per-call facts of a helper package and of a
// caller of it: a function that starts a goroutine doing blocking work and
// returns has one, whether the goroutine runs a literal or a named
// function, after an early return on an error too; one that waits for it,
// takes a semaphore slot first, guards the start, starts only under a
// condition or after an early return, starts a goroutine that only
// computes, or starts one per element of a loop has none. A function that
// calls one that spawns, once on every call, spawns per call through it
// (Audit); one that calls it on some calls only, or waits after, has
// none. Only functions with exported names export their facts (no other
// package can call the rest): the caller's unexported handlers keep theirs
// in the package's result, which handler.go's findings show. A function
// that returns one starting its handler parameter per call of the result
// (Async, AsyncRecover) has an asynchronous wrapper's fact; one that takes
// a slot first, or starts a goroutine that does not get the event, has
// none.
// The packages' "// want" lines would be unboundedqueue's (TestRulesReached
// runs the check over all its testdata), so the facts are compared here.
func TestPerCallFacts(t *testing.T) {
	results := analysistest.Run(factsOnly{t}, fixtest.TestData(), spawn.PerCallAnalyzer, "unboundedqueue/spawncall/helper", "unboundedqueue/spawncall/caller")
	got := make(map[string]string)
	for _, r := range results {
		if r.Pass.Pkg.Name() == "caller" {
			importsFact(t, r.Pass.Pkg, r.Result.(*spawn.PerCallResult))
		}
		for obj, facts := range r.Facts {
			if fn, ok := obj.(*types.Func); ok {
				for _, f := range facts {
					got[types.ObjectString(fn, types.RelativeTo(fn.Pkg()))] = fmt.Sprint(f)
				}
			}
		}
	}
	want := map[string]string{
		"func (*Client).Refresh(url string)":                         "spawns per call at helper.go:22 (c.hc.Get)",
		"func Save(c *Client, url string)":                           "spawns per call at helper.go:33 (c.save)",
		"func (*Client).Fetch(url string) error":                     "spawns per call at helper.go:128 (c.hc.Do)",
		"func Audit(c *Client, url string)":                          "spawns per call at helper.go:33 (c.save) through helper.Save",
		"func (*Client).RefreshCtx(ctx context.Context, url string)": "spawns per call at helper.go:159 (c.hc.Do), under its context",
		"func Async(f func(Event)) func(Event)":                      "returns a function starting parameter 0 per call at helper.go:178",
		"func AsyncRecover(f func(Event)) func(Event)":               "returns a function starting parameter 0 per call at helper.go:185",
	}
	if !maps.Equal(got, want) {
		var s string
		for _, k := range slices.Sorted(maps.Keys(got)) {
			s += fmt.Sprintf("\t%q: %q\n", k, got[k])
		}
		t.Errorf("facts:\n%s", s)
	}
}

// importsFact checks that the caller package's result holds the fact of
// the helper's Save, computed when the helper was analyzed.
func importsFact(t *testing.T, pkg *types.Package, res *spawn.PerCallResult) {
	t.Helper()
	for _, imp := range pkg.Imports() {
		if imp.Name() != "helper" {
			continue
		}
		if save, _ := imp.Scope().Lookup("Save").(*types.Func); res.Of(save) == nil {
			t.Errorf("the caller's result has no fact for helper.Save")
		}
		return
	}
	t.Errorf("the caller does not import helper")
}

// factsOnly passes on the errors of analysistest but those about facts,
// which TestPerCallFacts compares itself, and about "// want" lines, which
// are unboundedqueue's diagnostics.
type factsOnly struct{ t *testing.T }

func (w factsOnly) Errorf(format string, args ...any) {
	w.t.Helper()
	msg := fmt.Sprintf(format, args...)
	if !strings.Contains(msg, "unexpected fact: ") && !strings.Contains(msg, "no diagnostic was reported matching") {
		w.t.Error(msg)
	}
}
