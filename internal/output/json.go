package output

import (
	"encoding/json"
	"fmt"
	"io"
)

// The JSON format is the one "go vet -json" prints: an object keyed by package
// ID, then by analyzer name, holding either a list of diagnostics or an
// {"error": ...} object. Scripts written against go vet read it unchanged.

type jsonEdit struct {
	Filename string `json:"filename"`
	Start    int    `json:"start"`
	End      int    `json:"end"`
	New      string `json:"new"`
}

type jsonFix struct {
	Message string     `json:"message"`
	Edits   []jsonEdit `json:"edits"`
}

type jsonRelated struct {
	Posn    string `json:"posn"`
	End     string `json:"end"`
	Message string `json:"message"`
}

type jsonDiagnostic struct {
	Category       string        `json:"category,omitempty"`
	Posn           string        `json:"posn"`
	End            string        `json:"end"`
	Message        string        `json:"message"`
	SuggestedFixes []jsonFix     `json:"suggested_fixes,omitempty"`
	Related        []jsonRelated `json:"related,omitempty"`
}

type jsonError struct {
	Err string `json:"error"`
}

// JSON writes r in the shape of "go vet -json".
func JSON(w io.Writer, r *Result, opts Options) error {
	tree := make(map[string]map[string]any)
	add := func(pkg, check string, v any) {
		m := tree[pkg]
		if m == nil {
			m = make(map[string]any)
			tree[pkg] = m
		}
		if list, ok := m[check].([]jsonDiagnostic); ok {
			if d, ok := v.(jsonDiagnostic); ok {
				m[check] = append(list, d)
				return
			}
		}
		if d, ok := v.(jsonDiagnostic); ok {
			v = []jsonDiagnostic{d}
		}
		m[check] = v
	}
	for _, e := range r.Errors {
		check := e.Check
		if check == "" {
			check = "queuecheck"
		}
		add(e.Package, check, jsonError{e.Message})
	}
	for _, f := range r.Findings {
		d := jsonDiagnostic{
			Category: f.Category,
			Posn:     position(f.Pos, Options{}),
			End:      position(f.End, Options{}),
			Message:  f.Message,
		}
		if f.Fix != nil {
			fix := jsonFix{Message: f.Fix.Message}
			for _, e := range f.Fix.Edits {
				fix.Edits = append(fix.Edits, jsonEdit{e.Filename, e.Start, e.End, e.New})
			}
			d.SuggestedFixes = []jsonFix{fix}
		}
		for _, rel := range f.Related {
			d.Related = append(d.Related, jsonRelated{position(rel.Pos, Options{}), position(rel.End, Options{}), rel.Message})
		}
		add(f.Package, f.Check, d)
	}
	data, err := json.MarshalIndent(tree, "", "\t")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", data)
	return err
}
