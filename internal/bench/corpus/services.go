package main

import (
	"fmt"
	"slices"
	"strings"
)

// A module is one row of services.tsv: a module directory of a service's
// repository and the package patterns analyzed in it.
type module struct {
	Service    string   `json:"-"`
	Kind       string   `json:"-"`
	Repository string   `json:"-"`
	Commit     string   `json:"-"`
	Dir        string   `json:"dir"`      // relative to the repository root, "." for the root
	Patterns   []string `json:"patterns"` // "-PATTERN" removes the packages PATTERN matches; "-tags=a,b" sets build tags
}

// A service is a repository at a pinned commit with one or more modules.
type service struct {
	Name       string
	Split      string // the census split (tune or holdout); "" in the corpus
	Kind       string
	Repository string // e.g. github.com/nsqio/nsq
	Commit     string
	Modules    []module
}

// servicesColumns are services.tsv's columns, in order.
var servicesColumns = []string{"service", "kind", "repository", "commit", "module", "patterns"}

// readServices reads services.tsv: a header line naming servicesColumns, then
// one row per module, tab-separated; blank lines and lines starting with #
// are ignored. Rows of one service repeat its kind, repository and commit.
func readServices(name string) ([]*service, error) {
	rows, err := readTSV(name, servicesColumns)
	if err != nil {
		return nil, err
	}
	return servicesOf(name, rows, nil)
}

// readCensusServices reads census-services.tsv: services.tsv's columns with
// the split (tune or holdout) after the service.
func readCensusServices(name string) ([]*service, error) {
	rows, err := readTSV(name, censusServicesColumns)
	if err != nil {
		return nil, err
	}
	split := make([]string, len(rows))
	for i, r := range rows {
		split[i] = r.cols[1]
		if !slices.Contains(splits, split[i]) {
			return nil, fmt.Errorf("%s:%d: split %q is not one of %s", name, r.line, split[i], strings.Join(splits, ", "))
		}
		rows[i].cols = slices.Delete(slices.Clone(r.cols), 1, 2)
	}
	return servicesOf(name, rows, split)
}

// servicesOf groups the module rows of name (services.tsv's columns) by
// service; split, when not nil, is each row's census split.
func servicesOf(name string, rows []tsvRow, split []string) ([]*service, error) {
	var list []*service
	byName := make(map[string]*service)
	for i, r := range rows {
		line, cols := r.line, r.cols
		m := module{Service: cols[0], Kind: cols[1], Repository: cols[2], Commit: cols[3], Dir: cols[4], Patterns: strings.Fields(cols[5])}
		if m.Service == "" || m.Repository == "" || m.Dir == "" || len(m.Patterns) == 0 {
			return nil, fmt.Errorf("%s:%d: service, repository, module and patterns must not be empty", name, line)
		}
		if len(m.Commit) != 40 {
			return nil, fmt.Errorf("%s:%d: commit %q is not a full 40-digit hash", name, line, m.Commit)
		}
		sp := ""
		if split != nil {
			sp = split[i]
		}
		s := byName[m.Service]
		if s == nil {
			s = &service{Name: m.Service, Split: sp, Kind: m.Kind, Repository: m.Repository, Commit: m.Commit}
			byName[m.Service] = s
			list = append(list, s)
		} else if s.Repository != m.Repository || s.Commit != m.Commit || s.Kind != m.Kind || s.Split != sp {
			return nil, fmt.Errorf("%s:%d: service %s has another split, kind, repository or commit on an earlier row", name, line, m.Service)
		}
		for _, other := range s.Modules {
			if other.Dir == m.Dir {
				return nil, fmt.Errorf("%s:%d: module %s of %s is listed twice", name, line, m.Dir, m.Service)
			}
		}
		s.Modules = append(s.Modules, m)
	}
	return list, nil
}
