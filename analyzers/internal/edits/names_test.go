package edits

import (
	"go/token"
	"testing"
)

// lib is a second file of the test package: a package-level sem, an import
// of limits under the name maxJobs, and a dot import that brings MaxJobs
// into its file scope.
const lib = `package p

import (
	. "example.com/limits"
	maxJobs "example.com/limits"
)

var sem = make(chan struct{}, 4)

var _ = maxJobs.MaxJobs
`

const code = `package p

import "fmt"

func loop(jobs []int) {
	/*loop*/ for i := range jobs {
		go func(j int) { /*body*/ fmt.Println(j) }(i)
	}
	/*later*/ timer := 0
	_ = timer
}

func acquire() {
	/*acquire*/ sem <- struct{}{}
}

func other() {
	{
		done := 1
		_ = done
	}
	/*other*/ println()
}
`

func TestNames(t *testing.T) {
	pass := newPass(t, "code.go", code, "lib.go", lib)
	pos := func(marker string) token.Pos { return after(t, pass, "code.go", marker+" ") }
	type call struct {
		local string // the marker of a local's insertion point; "" for a package-level name
		base  string
		uses  []string // markers of uses
		want  string
	}
	for _, test := range []struct {
		name  string
		calls []call // on one allocator, in order
	}{
		{"a local declared below the insertion point", []call{{local: "/*loop*/", base: "timer", want: "timer2"}}},
		{"a name nothing declares", []call{{local: "/*other*/", base: "limit", want: "limit"}, {base: "limit", want: "limit2"}}},
		{"a package-level name visible at the insertion point", []call{{local: "/*other*/", base: "sem", want: "sem2"}}},
		{"an import of the file", []call{{local: "/*other*/", base: "fmt", want: "fmt2"}}},
		{"an import of another file only", []call{{local: "/*other*/", base: "maxJobs", want: "maxJobs"}}},
		{"the universe", []call{{local: "/*other*/", base: "len", want: "len2"}, {base: "close", want: "close2"}}},
		{"a package-level name, and another file's import name", []call{{base: "sem", want: "sem2"}, {base: "maxJobs", want: "maxJobs2"}}},
		{"another file's dot import", []call{{base: "MaxJobs", want: "MaxJobs2"}}},
		{"a parameter where the fix uses the name", []call{{base: "j", uses: []string{"/*body*/"}, want: "j2"}}},
		{"reservations across calls", []call{
			{base: "errFull", want: "errFull"},
			{base: "errFull", want: "errFull2"},
			{local: "/*loop*/", base: "slot", want: "slot"},
			{local: "/*loop*/", base: "slot", want: "slot2"},
			{local: "/*acquire*/", base: "slot", want: "slot"}, // another function
			{base: "slot", want: "slot3"},                      // a local slot may be where it is used
			{local: "/*other*/", base: "errFull", want: "errFull3"},
		}},
	} {
		t.Run(test.name, func(t *testing.T) {
			names := NewNames(pass)
			for _, c := range test.calls {
				var uses []token.Pos
				for _, u := range c.uses {
					uses = append(uses, pos(u))
				}
				var got string
				if c.local != "" {
					got = names.Local(pos(c.local), c.base, uses...)
				} else {
					got = names.Package(c.base, uses...)
				}
				if got != c.want {
					t.Errorf("%s %q = %q, want %q", c.local, c.base, got, c.want)
				}
			}
		})
	}
}

// The scope rules by themselves, beneath the rule that no identifier of the
// function (or package) spells a new name.
func TestNamesScopes(t *testing.T) {
	pass := newPass(t, "code.go", code, "lib.go", lib)
	n := NewNames(pass)
	pos := func(marker string) token.Pos { return after(t, pass, "code.go", marker+" ") }
	for _, test := range []struct {
		at, name string
		free     bool
	}{
		{"/*loop*/", "i", true},      // the for statement at the insertion point declares i in its own scope
		{"/*loop*/", "timer", false}, // declared later in the same block
		{"/*loop*/", "jobs", false},  // a parameter, visible there
		{"/*other*/", "done", true},  // declared in a block that ended before
		{"/*other*/", "sem", false},  // package level, in another file
		{"/*other*/", "fmt", false},  // this file's import
		{"/*other*/", "maxJobs", true},
		{"/*other*/", "print", false},
	} {
		if got := n.freeAt(pos(test.at), test.name); got != test.free {
			t.Errorf("freeAt(%s, %s) = %v, want %v", test.at, test.name, got, test.free)
		}
	}
	if n.unshadowedAt("j", []token.Pos{pos("/*body*/")}) {
		t.Error("the literal's parameter j does not shadow j in its body")
	}
	if !n.unshadowedAt("done", []token.Pos{pos("/*other*/")}) {
		t.Error("done, declared in a block that ended, shadows done after it")
	}
	if n.freeInPackage("MaxJobs") || n.freeInPackage("maxJobs") || n.freeInPackage("sem") || !n.freeInPackage("timer") {
		t.Error("freeInPackage: want MaxJobs, maxJobs and sem taken, timer free")
	}
}
