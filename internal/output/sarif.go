package output

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"go/token"
	"io"
	"path/filepath"
	"strings"
)

// SARIF 2.1.0, the subset GitHub code scanning reads. See
// https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html.

const (
	sarifVersion = "2.1.0"
	sarifSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
	// InformationURI is the project's home page, recorded as the tool's.
	InformationURI = "https://github.com/queuecheck/queuecheck"
	// FingerprintKey names queuecheck's line-independent fingerprint.
	FingerprintKey = "queuecheck/v1"
)

type sarifLog struct {
	Version string     `json:"version"`
	Schema  string     `json:"$schema"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifMessage struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifRule struct {
	ID                   string             `json:"id"`
	Name                 string             `json:"name,omitempty"`
	ShortDescription     sarifMessage       `json:"shortDescription"`
	FullDescription      sarifMessage       `json:"fullDescription"`
	Help                 sarifMessage       `json:"help"`
	HelpURI              string             `json:"helpUri,omitempty"`
	DefaultConfiguration sarifConfiguration `json:"defaultConfiguration"`
}

type sarifConfiguration struct {
	Level string `json:"level"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifMessage      `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	RelatedLocations    []sarifLocation   `json:"relatedLocations,omitempty"`
	PartialFingerprints map[string]string `json:"partialFingerprints,omitempty"`
	Fixes               []sarifFix        `json:"fixes,omitempty"`
}

type sarifLocation struct {
	ID               int                   `json:"id,omitempty"`
	Message          *sarifMessage         `json:"message,omitempty"`
	PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           sarifRegion           `json:"region"`
}

type sarifArtifactLocation struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

type sarifFix struct {
	Description     sarifMessage          `json:"description"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
}

type sarifArtifactChange struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Replacements     []sarifReplacement    `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion   sarifRegion           `json:"deletedRegion"`
	InsertedContent *sarifArtifactContent `json:"insertedContent,omitempty"`
}

type sarifArtifactContent struct {
	Text string `json:"text"`
}

// SARIF writes r as a SARIF 2.1.0 log with one rule per check and kind.
// Rule IDs are the findings' categories ("unboundedqueue/slicefifo"); the
// rule for a check alone describes its directive findings.
func SARIF(w io.Writer, r *Result, opts Options) error {
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name:           "queuecheck",
			Version:        opts.Version,
			InformationURI: InformationURI,
		}},
		Results: []sarifResult{},
	}
	docs := make(map[string]Check)
	for _, c := range r.Checks {
		docs[c.Name] = c
	}
	ruleIndex := make(map[string]int)
	rule := func(f Finding) int {
		if i, ok := ruleIndex[f.Category]; ok {
			return i
		}
		c := docs[f.Check]
		title, full := splitDoc(c.Doc)
		if title == "" {
			title = f.Check
		}
		helpURI := c.URL
		if _, kind, ok := strings.Cut(f.Category, "/"); ok && c.URL != "" {
			helpURI = c.URL + "#" + kind
		}
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{
			ID:                   f.Category,
			Name:                 f.Check,
			ShortDescription:     sarifMessage{Text: title},
			FullDescription:      sarifMessage{Text: cmpOr(full, title)},
			Help:                 sarifMessage{Text: cmpOr(full, title) + "\n\nSee " + helpURI, Markdown: cmpOr(full, title) + "\n\n[Documentation](" + helpURI + ")"},
			HelpURI:              helpURI,
			DefaultConfiguration: sarifConfiguration{Level: level(f)},
		})
		ruleIndex[f.Category] = len(run.Tool.Driver.Rules) - 1
		return ruleIndex[f.Category]
	}
	for _, f := range r.Findings {
		res := sarifResult{
			RuleID:    f.Category,
			RuleIndex: rule(f),
			Level:     level(f),
			Message:   sarifMessage{Text: f.Message},
			Locations: []sarifLocation{{PhysicalLocation: physical(f.Pos, f.End, opts)}},
		}
		if f.Key != "" {
			sum := sha256.Sum256([]byte(f.Key))
			res.PartialFingerprints = map[string]string{FingerprintKey: hex.EncodeToString(sum[:16])}
		}
		for i, rel := range f.Related {
			res.RelatedLocations = append(res.RelatedLocations, sarifLocation{
				ID:               i + 1,
				Message:          &sarifMessage{Text: rel.Message},
				PhysicalLocation: physical(rel.Pos, rel.End, opts),
			})
		}
		if f.Fix != nil {
			fix := sarifFix{Description: sarifMessage{Text: f.Fix.Message}}
			byFile := make(map[string]int)
			for _, e := range f.Fix.Edits {
				i, ok := byFile[e.Filename]
				if !ok {
					fix.ArtifactChanges = append(fix.ArtifactChanges, sarifArtifactChange{ArtifactLocation: sarifArtifactLocation{URI: uri(e.Filename, opts)}})
					i = len(fix.ArtifactChanges) - 1
					byFile[e.Filename] = i
				}
				repl := sarifReplacement{DeletedRegion: region(e.StartPos, e.EndPos)}
				if e.New != "" {
					repl.InsertedContent = &sarifArtifactContent{Text: e.New}
				}
				fix.ArtifactChanges[i].Replacements = append(fix.ArtifactChanges[i].Replacements, repl)
			}
			res.Fixes = []sarifFix{fix}
		}
		run.Results = append(run.Results, res)
	}
	if run.Tool.Driver.Rules == nil {
		run.Tool.Driver.Rules = []sarifRule{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{Version: sarifVersion, Schema: sarifSchema, Runs: []sarifRun{run}})
}

func physical(pos, end token.Position, opts Options) sarifPhysicalLocation {
	return sarifPhysicalLocation{
		ArtifactLocation: sarifArtifactLocation{URI: uri(pos.Filename, opts)},
		Region:           region(pos, end),
	}
}

func region(pos, end token.Position) sarifRegion {
	r := sarifRegion{StartLine: max(pos.Line, 1), StartColumn: pos.Column}
	if end.IsValid() && end.Line >= pos.Line {
		r.EndLine, r.EndColumn = end.Line, end.Column
		if r.EndLine == r.StartLine && r.EndColumn < r.StartColumn {
			r.EndColumn = r.StartColumn
		}
	}
	return r
}

// uri is the file's name as the output options give it, with forward slashes:
// relative to the repository root, code scanning matches it to the checkout.
func uri(filename string, opts Options) string {
	return filepath.ToSlash(opts.rel(filename))
}

// splitDoc splits an analyzer's Doc into its title line ("chansize: report
// oversized channel buffers", without the name) and the rest.
func splitDoc(doc string) (title, rest string) {
	title, rest, _ = strings.Cut(doc, "\n")
	if _, t, ok := strings.Cut(title, ": "); ok {
		title = t
	}
	return strings.TrimSpace(title), strings.TrimSpace(rest)
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// level is the SARIF level of f: a warning, or a note for a why-diagnostic.
func level(f Finding) string {
	if f.IsWhy() {
		return "note"
	}
	return "warning"
}
