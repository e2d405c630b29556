package queuefact_test

import (
	"fmt"
	"go/types"
	"maps"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/queuecheck/queuecheck/analyzers/internal/fixtest"
	"github.com/queuecheck/queuecheck/analyzers/unboundedqueue/internal/queuefact"
)

// TestFacts checks the push facts of the queue types of a helper package:
// a push that never refuses onto a store another method drains has one; a
// push that refuses when full, a store bounded by a method of its own, a
// store nothing drains and a type that locks for itself have none. The
// package's "// want" lines are unboundedqueue's (its tests run the check
// over every package there), so the facts are compared here.
func TestFacts(t *testing.T) {
	results := analysistest.Run(wantsOfOthers{t}, fixtest.TestData(), queuefact.Analyzer, "unboundedqueue/queuefacts/queue")
	got := make(map[string]string)
	for _, r := range results {
		for obj, facts := range r.Facts {
			fn, ok := obj.(*types.Func)
			if !ok {
				continue
			}
			for _, f := range facts {
				got[types.ObjectString(fn, types.RelativeTo(fn.Pkg()))] = fmt.Sprint(f)
			}
		}
	}
	want := map[string]string{
		"func (*Queue).Push(s string)":             "push never refuses: slice store .items, drained from the front by Pop",
		"func (*Events).Add(v int)":                "push never refuses: list store .l, drained from the front by Next",
		"func (*Batch).Put(v int)":                 "push never refuses: slice store .buf, emptied whole by Take",
		"func (*Records).Append(rec string)":       "push never refuses: slice store .records, emptied whole by Reset",
		"func (*Timer).Phase(p string, now int64)": "push never refuses: slice store .rows, emptied whole by Done",
		"func (*Timer).Observe(p string, d int64)": "push never refuses: slice store .rows, emptied whole by Done",
	}
	if !maps.Equal(got, want) {
		t.Errorf("facts:\n%v\nwant:\n%v", fmtMap(got), fmtMap(want))
	}
}

// wantsOfOthers passes on the errors of analysistest but those about "//
// want" lines: the package's wants are unboundedqueue's diagnostics, and
// the facts, which analysistest would call unexpected, are compared by
// TestFacts itself.
type wantsOfOthers struct{ t *testing.T }

func (w wantsOfOthers) Errorf(format string, args ...any) {
	w.t.Helper()
	msg := fmt.Sprintf(format, args...)
	if strings.Contains(msg, "unexpected fact: ") || strings.Contains(msg, "no diagnostic was reported matching") {
		return
	}
	w.t.Error(msg)
}

func fmtMap(m map[string]string) string {
	var s string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		s += "\t" + k + ": " + m[k] + "\n"
	}
	return s
}
