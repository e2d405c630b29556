package waits

import (
	"fmt"
	"go/types"
	"slices"
	"strings"
)

// Funcs is a set of functions named the way a flag lists them: "pkgpath.Func"
// or "pkgpath.Type.Method" (pointer or value receiver alike), so
// "example.com/pool.Pool.Get" is (*pool.Pool).Get. The Go spelling
// "(*example.com/pool.Pool).Get" is accepted too. It is a flag.Value whose Set
// takes a comma-separated list.
type Funcs struct {
	names []string
	set   map[string]bool
}

// String returns the entries, comma-separated.
func (t *Funcs) String() string {
	if t == nil {
		return ""
	}
	return strings.Join(t.names, ",")
}

// Set replaces the entries with the comma-separated list s.
func (t *Funcs) Set(s string) error {
	t.names, t.set = nil, make(map[string]bool)
	for e := range strings.SplitSeq(s, ",") {
		e = strings.TrimSpace(e)
		if e == "" {
			continue
		}
		key, err := normalize(e)
		if err != nil {
			return err
		}
		if !t.set[key] {
			t.names = append(t.names, key)
			t.set[key] = true
		}
	}
	slices.Sort(t.names)
	return nil
}

// Contains reports whether fn (its generic origin) is listed.
func (t *Funcs) Contains(fn *types.Func) bool {
	if t == nil || len(t.set) == 0 || fn == nil || fn.Pkg() == nil {
		return false
	}
	return t.set[Key(fn)]
}

// normalize turns "(*pkg.T).M" into "pkg.T.M" and checks that the entry has a
// package path and a name.
func normalize(e string) (string, error) {
	if strings.HasPrefix(e, "(") {
		closing := strings.Index(e, ")")
		if closing < 0 || !strings.HasPrefix(e[closing:], ").") {
			return "", fmt.Errorf("%q: want pkgpath.Func or pkgpath.Type.Method", e)
		}
		e = strings.TrimPrefix(e[1:closing], "*") + e[closing+1:]
	}
	tail := e[strings.LastIndex(e, "/")+1:]
	if dots := strings.Count(tail, "."); dots < 1 || dots > 2 || strings.HasSuffix(e, ".") {
		return "", fmt.Errorf("%q: want pkgpath.Func or pkgpath.Type.Method", e)
	}
	return e, nil
}

// Key returns the name of fn in a Funcs set: "pkgpath.Func" or
// "pkgpath.Type.Method".
func Key(fn *types.Func) string {
	fn = fn.Origin()
	if fn.Pkg() == nil {
		return fn.Name()
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig != nil && sig.Recv() != nil {
		t := sig.Recv().Type()
		if p, ok := types.Unalias(t).(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := types.Unalias(t).(*types.Named); ok {
			return fn.Pkg().Path() + "." + n.Obj().Name() + "." + fn.Name()
		}
	}
	return fn.Pkg().Path() + "." + fn.Name()
}
