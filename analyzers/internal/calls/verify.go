package calls

import (
	"fmt"
	"go/token"
	"go/types"
	"io"
	"os"
	"sync"
)

// Names that name nothing.
//
// An extra entry that names no function matches nothing, silently: the
// check then behaves as if the flag were not given. A check sees one
// package at a time, so it can tell that an entry names nothing only where
// the entry's package is in view: the package analyzed or one it imports.
// There the package's scope is complete (an imported package's, for its
// exported names), and a function or method missing from it is a mistake.
// An entry such as "a/b.c.F" reads two ways, function F of package a/b.c or
// method F of type c of package a/b; where the package of one reading is in
// view and names nothing, the other is taken to name nothing either (that
// both a/b and a/b.c exist and the entry means the one not in view is too
// unlikely to keep the warning from everyone else). [Table.Verify] checks
// the entries against each package analyzed and warns, once per entry and
// process. A driver that has every package of the run at hand (the
// standalone one) also calls [Table.Unresolved] after the run, for the
// entries whose package was never in view: if no package loaded is theirs,
// they name nothing the code analyzed could call.

// warnings is where Verify writes; a variable for tests.
var warnings io.Writer = os.Stderr

// warnMu serializes writes to warnings, so two tables' warnings do not mix.
var warnMu sync.Mutex

// Verify looks the extra entries up in pkg, a package being analyzed, and in
// the packages it imports, and warns on standard error about each entry
// that names nothing there: once per entry and process.
func (t *Table) Verify(pkg *types.Package) {
	if t == nil || pkg == nil {
		return
	}
	t.mu.Lock()
	var msgs []string
	for _, e := range t.extra {
		if e.found || e.warned {
			continue
		}
		inView := false // some reading's package is in view
		sure := true    // every reading in view is found or refuted
		for i := range e.names {
			nm := &e.names[i]
			p := packageInView(pkg, nm.pkg)
			if p == nil || !p.Complete() {
				continue
			}
			inView = true
			if nm.missing == "" {
				found, why := lookup(p, nm, p == pkg)
				e.found = e.found || found
				nm.missing = why
				sure = sure && (found || why != "")
			}
		}
		if inView && sure {
			if msg := t.warning(e); msg != "" {
				msgs = append(msgs, msg)
			}
		}
	}
	t.mu.Unlock()
	warnMu.Lock()
	defer warnMu.Unlock()
	for _, msg := range msgs {
		fmt.Fprintln(warnings, msg)
	}
}

// Unresolved is Verify for a driver that, after a run, has every package
// loaded: loaded returns the package of a path, or nil if none that the
// packages analyzed import, directly or not, has it. It returns the warnings Verify has not printed, for entries
// that name nothing in any package loaded, and marks them printed.
func (t *Table) Unresolved(loaded func(path string) *types.Package) []string {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	var msgs []string
	for _, e := range t.extra {
		if e.found || e.warned {
			continue
		}
		sure := true
		for i := range e.names {
			nm := &e.names[i]
			if nm.missing != "" {
				continue
			}
			p := loaded(nm.pkg)
			if p == nil {
				nm.missing, nm.unloaded = "no package analyzed imports "+nm.pkg, true
				continue
			}
			if !p.Complete() {
				// Export data brings in only the parts of a package
				// that another package's API mentions.
				sure = false
				continue
			}
			found, why := lookup(p, nm, false)
			e.found = e.found || found
			nm.missing = why
			sure = sure && (found || why != "")
		}
		if sure {
			if msg := t.warning(e); msg != "" {
				msgs = append(msgs, msg)
			}
		}
	}
	return msgs
}

// warning returns the warning for e unless some reading of it was found,
// none is known to name nothing, or it was given already; it marks it
// given. Of the reasons, it gives one about a package's contents if any.
func (t *Table) warning(e *entry) string {
	if e.found || e.warned {
		return ""
	}
	var why string
	for _, nm := range e.names {
		if nm.missing != "" && (why == "" || !nm.unloaded) {
			why = nm.missing
			if !nm.unloaded {
				break
			}
		}
	}
	if why == "" {
		return ""
	}
	e.warned = true
	return fmt.Sprintf("queuecheck: warning: %s: %s names nothing: %s", t.flag, e.key, why)
}

// packageInView returns the package of path if it is pkg or one pkg imports.
func packageInView(pkg *types.Package, path string) *types.Package {
	if pkg.Path() == path {
		return pkg
	}
	for _, p := range pkg.Imports() {
		if p.Path() == path {
			return p
		}
	}
	return nil
}

// lookup reports whether p holds the function or method nm names, and if it
// certainly does not, why. complete says p's scope holds all its names, as a
// package type-checked from source does; otherwise (export data) only its
// exported names and methods are sure to be there.
func lookup(p *types.Package, nm *name, complete bool) (found bool, missing string) {
	sure := func(names ...string) bool {
		if complete {
			return true
		}
		for _, n := range names {
			if !token.IsExported(n) {
				return false
			}
		}
		return true
	}
	if nm.recv == "" {
		if _, ok := p.Scope().Lookup(nm.fn).(*types.Func); ok {
			return true, ""
		}
		if sure(nm.fn) {
			return false, "package " + p.Path() + " has no function " + nm.fn
		}
		return false, ""
	}
	tn, ok := p.Scope().Lookup(nm.recv).(*types.TypeName)
	if !ok {
		if sure(nm.recv) {
			return false, "package " + p.Path() + " has no type " + nm.recv
		}
		return false, ""
	}
	if tn.IsAlias() {
		return false, "type " + p.Path() + "." + nm.recv + " is an alias: name the type it stands for"
	}
	if declaresMethod(tn.Type(), nm.fn) {
		return true, ""
	}
	if sure(nm.recv, nm.fn) {
		// A promoted method is named by the type that declares it, as
		// Key names it.
		return false, "type " + p.Path() + "." + nm.recv + " declares no method " + nm.fn
	}
	return false, ""
}

// declaresMethod reports whether the named type t declares a method name
// (explicitly, for an interface).
func declaresMethod(t types.Type, name string) bool {
	named, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	for m := range named.Methods() {
		if m.Name() == name {
			return true
		}
	}
	if iface, ok := named.Underlying().(*types.Interface); ok {
		for m := range iface.ExplicitMethods() {
			if m.Name() == name {
				return true
			}
		}
	}
	return false
}
