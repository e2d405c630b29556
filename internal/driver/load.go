package driver

import (
	"context"
	"fmt"
	"go/build"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/tools/go/packages"
)

// How packages are loaded.
//
// The x/tools checker runs an analyzer that uses facts (resolverpool) on
// every dependency of the packages analyzed, and the usual way to feed it,
// packages.LoadAllSyntax, parses and type-checks every dependency from
// source, the standard library included: two to four times the cost of
// analysis itself. queuecheck needs less. The standard library is answered
// from resolverpool's tables, and third-party modules are not the user's to
// fix. What must be analyzed for facts is the user's own code: the packages
// of the main module(s) that the packages named depend on. So the driver
// loads those packages from source as extra roots, everything else from
// export data, exactly as a driver without facts does, and reports findings
// only in the packages the patterns name.
//
// The price: a call into a third-party module is not followed. -deps
// follows it: the packages of every other module the named packages depend
// on are loaded from source too, for their facts (the standard library
// still is not), as go vet -vettool always analyzes every dependency.

// A loaded set of packages: all roots given to the checker, and which of them
// the user named.
type loaded struct {
	pkgs  []*packages.Package
	named map[*packages.Package]bool
}

// load loads the packages the patterns name, without tests (queuecheck never
// reports in _test.go files), and with facts in the suite, the main-module
// packages they depend on.
func load(opts *options) (*loaded, error) {
	conf := &packages.Config{Mode: packages.LoadSyntax | packages.NeedModule, Tests: false}
	if opts.tags != "" {
		conf.BuildFlags = []string{"-tags=" + opts.tags}
	}
	var namedIDs map[string]bool
	var pkgs []*packages.Package
	var err error
	if needFacts(opts.analyzers) && (opts.deps || mayNameMainModule(opts.patterns)) {
		namedIDs, pkgs, err = loadWithModuleDeps(conf, opts.patterns, opts.deps)
	} else {
		pkgs, err = packages.Load(conf, opts.patterns...)
	}
	if err != nil {
		return nil, err
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("%s matched no packages", strings.Join(opts.patterns, " "))
	}
	l := &loaded{pkgs: pkgs, named: make(map[*packages.Package]bool)}
	for _, p := range pkgs {
		if namedIDs == nil || namedIDs[p.ID] {
			l.named[p] = true
		}
	}
	return l, nil
}

// loadWithModuleDeps loads the packages the patterns name together with the
// main-module packages they depend on (with all, those of every module),
// and returns the IDs of the named ones. Finding those dependencies takes a go list of its own; rather than
// wait for it, the load of the named packages starts at once, and is used
// as it is when there is nothing to add, which is the common case (./...
// names every package of its module). Otherwise it is cancelled and the
// packages are loaded again with the additions.
func loadWithModuleDeps(conf *packages.Config, patterns []string, all bool) (map[string]bool, []*packages.Package, error) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type result struct {
		pkgs []*packages.Package
		err  error
	}
	speculative := make(chan result, 1)
	go func() {
		c := *conf
		c.Context = ctx
		pkgs, err := packages.Load(&c, patterns...)
		speculative <- result{pkgs, err}
	}()
	named, extra, err := moduleDeps(conf, patterns, all)
	if err != nil {
		return nil, nil, err
	}
	if len(extra) == 0 {
		r := <-speculative
		return named, r.pkgs, r.err
	}
	cancel()
	pkgs, err := packages.Load(conf, append(patterns[:len(patterns):len(patterns)], extra...)...)
	return named, pkgs, err
}

// mayNameMainModule reports whether the patterns may name packages of the
// main module, whose main-module dependencies must then be looked for. It
// answers false only when that is certain without asking the go command:
// the working directory is in a module (no workspace), and every pattern is
// an import path outside it, such as std or a dependency's packages, which
// cannot import the main module.
func mayNameMainModule(patterns []string) bool {
	if gowork := os.Getenv("GOWORK"); gowork != "" && gowork != "off" {
		return true
	}
	dir, err := os.Getwd()
	if err != nil {
		return true
	}
	var main string
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, "go.work")); err == nil && os.Getenv("GOWORK") != "off" {
			return true
		}
		if main == "" {
			if data, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil {
				if main = modfile.ModulePath(data); main == "" {
					return true
				}
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	if main == "" {
		return true // GOPATH mode, or no module: let the go command decide
	}
	for _, p := range patterns {
		if p == "std" || p == "cmd" || strings.HasPrefix(p, "cmd/") {
			continue
		}
		if p == "all" || build.IsLocalImport(p) || filepath.IsAbs(p) {
			return true
		}
		prefix, _, _ := strings.Cut(p, "...")
		prefix = strings.TrimSuffix(prefix, "/")
		if prefix == main || strings.HasPrefix(prefix, main+"/") || strings.HasPrefix(main, prefix) {
			return true
		}
	}
	return false
}

// moduleDeps lists, cheaply (no types, no syntax), the packages the patterns
// name and the import paths of the main-module packages (with all, the
// packages of any module: not the standard library's) they depend on that
// the patterns do not name.
func moduleDeps(conf *packages.Config, patterns []string, all bool) (named map[string]bool, extra []string, err error) {
	c := *conf
	c.Mode = packages.NeedName | packages.NeedImports | packages.NeedDeps | packages.NeedModule
	roots, err := packages.Load(&c, patterns...)
	if err != nil {
		return nil, nil, err
	}
	named = make(map[string]bool)
	for _, p := range roots {
		named[p.ID] = true
	}
	packages.Visit(roots, nil, func(p *packages.Package) {
		if !named[p.ID] && p.Module != nil && (p.Module.Main || all) && p.PkgPath != "" {
			extra = append(extra, p.PkgPath)
		}
	})
	return named, extra, nil
}

// pruneFactlessImports removes from the import graph the packages loaded from
// export data. The checker runs every analyzer that has facts on every
// package the graph reaches, and such a package, without syntax, can give
// none: pruning spares an action per analyzer and dependency (the standard
// library's hundreds among them) and their memory. Call it after every
// other use of the graph (load errors are found through it).
func pruneFactlessImports(pkgs []*packages.Package) {
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for path, imp := range p.Imports {
			if len(imp.Syntax) == 0 {
				delete(p.Imports, path)
			}
		}
	})
}
