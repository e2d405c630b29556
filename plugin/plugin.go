// Package plugin makes every queuecheck check a golangci-lint v2 module
// plugin.
//
// Importing it registers each analyzer of [analyzers.All] under its own name
// ("chansize", ...), so each check has its own enable switch, settings block,
// //nolint:<check> name and SARIF rule id in golangci-lint. A check added to
// analyzers.All is registered without a change here.
//
// # Settings
//
// A check's settings are its analyzer flags, under the flag's name:
//
//	linters:
//	  settings:
//	    custom:
//	      chansize:
//	        type: module
//	        settings:
//	          maxbytes: 4194304   # the same as -chansize.maxbytes=4194304
//
// Each value is given to the flag exactly as the command line would give it,
// so one number means one thing standalone, under go vet and here. A list
// becomes a comma-separated value. A key that names no flag is an error that
// names the key and lists the valid ones; a value the flag rejects is an error
// that names the key.
//
// Analyzer flags are process-wide state: the settings a plugin is constructed
// with apply to every use of that analyzer in the process. golangci-lint runs
// one configuration per process, so this is what a user expects. Every
// construction first resets the check's flags to their defaults and then
// applies its settings, so constructing a plugin more than once (golangci-lint
// may) is harmless, and the last construction wins.
//
// # queuecheck.toml
//
// Each check runs on each package with the settings of the package's
// queuecheck.toml files (see internal/config), and a setting of
// .golangci.yml overrides the files' everywhere.
//
// # Directives naming no check
//
// A //queuecheck:ignore directive that names no check is reported by one
// check of those that run (see [analyzers.SetRunning]). golangci-lint does
// not tell a plugin which linters it enables, only which it constructs, so
// the plugin declares the checks constructed in this process as the ones
// that run.
package plugin

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"maps"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/queuecheck/queuecheck/analyzers"
	"github.com/queuecheck/queuecheck/internal/config"
)

// suite is the configuration of the checks from the queuecheck.toml files;
// the settings of .golangci.yml override it.
var suite = config.New(analyzers.All)

// wrapped maps each check to the copy of it that runs with each package's
// configuration.
var wrapped = map[*analysis.Analyzer]*analysis.Analyzer{}

func init() {
	for _, a := range analyzers.All {
		wrapped[a] = suite.Wrap(a)
		register.Plugin(a.Name, func(settings any) (register.LinterPlugin, error) {
			return New(a, settings)
		})
	}
	analyzers.SetRunning(constructed)
	// golangci-lint keeps only the edits of a fix in the finding's file.
	analyzers.SetOneFileFixes(true)
}

// Linter is one check as a golangci-lint module plugin.
type Linter struct {
	analyzer *analysis.Analyzer
}

// BuildAnalyzers returns the check's analyzer, as it runs on each package
// with the configuration of the package's queuecheck.toml files under the
// settings of .golangci.yml (see config.Suite.Wrap). golangci-lint runs the
// analyzers it requires (and, for a check with facts, the check itself on
// dependencies) without reporting their findings.
func (l *Linter) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	return []*analysis.Analyzer{wrapped[l.analyzer]}, nil
}

// GetLoadMode asks for type information: every check needs it.
func (*Linter) GetLoadMode() string { return register.LoadModeTypesInfo }

var (
	mu    sync.Mutex                      // serializes changes to analyzer flags and to built
	built = map[*analysis.Analyzer]bool{} // the checks constructed in this process
)

// constructed returns the checks golangci-lint constructed, which it does
// for every check with a block under linters.settings.custom, before it
// runs any: the best a plugin can know of the linters enabled. The suite
// assumes they all run when it picks the one check that reports a
// //queuecheck:ignore directive naming no check; a directive nearest a check
// constructed but disabled goes unreported.
func constructed() []*analysis.Analyzer {
	mu.Lock()
	defer mu.Unlock()
	var as []*analysis.Analyzer
	for _, a := range analyzers.All {
		if built[a] {
			as = append(as, a)
		}
	}
	return as
}

// New applies settings, as golangci-lint passes them from a custom linter's
// settings block, to a's flags, and returns a as a plugin.
func New(a *analysis.Analyzer, settings any) (*Linter, error) {
	raw, err := register.DecodeSettings[map[string]json.RawMessage](settings)
	if err != nil {
		return nil, fmt.Errorf("%s: settings must map setting names to values: %w", a.Name, err)
	}
	type setting struct {
		f     *flag.Flag
		key   string
		value string
	}
	var todo []setting
	for _, key := range slices.Sorted(maps.Keys(raw)) {
		f := lookup(&a.Flags, key)
		if f == nil {
			return nil, fmt.Errorf("%s: unknown setting %q; %s", a.Name, key, validSettings(a))
		}
		value, err := flagValue(raw[key])
		if err != nil {
			return nil, fmt.Errorf("%s: setting %q: %v", a.Name, key, err)
		}
		todo = append(todo, setting{f, key, value})
	}

	mu.Lock()
	defer mu.Unlock()
	var resetErr error
	a.Flags.VisitAll(func(f *flag.Flag) {
		if err := f.Value.Set(f.DefValue); err != nil {
			resetErr = errors.Join(resetErr, fmt.Errorf("%s: resetting -%s.%s to its default %q: %v", a.Name, a.Name, f.Name, f.DefValue, err))
		}
	})
	if resetErr != nil {
		return nil, resetErr
	}
	suite.ClearOverrides(a.Name)
	for _, s := range todo {
		if err := s.f.Value.Set(s.value); err != nil {
			return nil, fmt.Errorf("%s: setting %q: invalid value %q: %v", a.Name, s.key, s.value, err)
		}
		suite.Override(a.Name+"."+s.f.Name, s.value)
	}
	suite.Invalidate()
	// A bad queuecheck.toml of the module golangci-lint runs in fails
	// here, naming file, line and key, rather than in every package.
	if wd, err := os.Getwd(); err == nil {
		if _, err := suite.ForDir(wd); err != nil {
			return nil, fmt.Errorf("%s: %v", a.Name, err)
		}
	}
	built[a] = true
	return &Linter{analyzer: a}, nil
}

// lookup finds the flag a settings key names. golangci-lint's configuration
// loader lower-cases keys, so a key that matches no flag exactly matches a
// flag whose name differs only in case.
func lookup(fs *flag.FlagSet, key string) *flag.Flag {
	if f := fs.Lookup(key); f != nil {
		return f
	}
	var found *flag.Flag
	fs.VisitAll(func(f *flag.Flag) {
		if strings.EqualFold(f.Name, key) {
			found = f
		}
	})
	return found
}

// validSettings describes the settings a accepts.
func validSettings(a *analysis.Analyzer) string {
	var names []string
	a.Flags.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	if len(names) == 0 {
		return a.Name + " has no settings"
	}
	return "valid settings: " + strings.Join(names, ", ") + " (queuecheck -explain " + a.Name + " describes them)"
}

// flagValue turns one decoded settings value into the text a flag's Set
// takes: a string as is, a number or boolean as written, a list of those
// comma-separated.
func flagValue(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", errors.New("no value given")
	}
	switch raw[0] {
	case '{':
		return "", errors.New("a mapping is not a value; give a string, number, boolean or list")
	case '[':
		var elems []json.RawMessage
		if err := json.Unmarshal(raw, &elems); err != nil {
			return "", err
		}
		parts := make([]string, 0, len(elems))
		for i, e := range elems {
			e = bytes.TrimSpace(e)
			if len(e) > 0 && (e[0] == '[' || e[0] == '{') {
				return "", fmt.Errorf("list element %d: a list holds strings, numbers or booleans", i+1)
			}
			s, err := flagValue(e)
			if err != nil {
				return "", fmt.Errorf("list element %d: %v", i+1, err)
			}
			parts = append(parts, s)
		}
		return strings.Join(parts, ","), nil
	case '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", err
		}
		return s, nil
	case 't', 'f':
		var b bool
		if err := json.Unmarshal(raw, &b); err != nil {
			return "", err
		}
		return strconv.FormatBool(b), nil
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err != nil {
		return "", err
	}
	s := n.String()
	// YAML reads 1e6 as a float; a whole number is written as an integer so
	// integer flags accept it.
	if strings.ContainsAny(s, ".eE") {
		if f, err := n.Float64(); err == nil && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			return strconv.FormatInt(int64(f), 10), nil
		}
	}
	return s, nil
}
