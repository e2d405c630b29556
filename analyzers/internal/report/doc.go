package report

import (
	"go/parser"
	"go/token"
	"strings"
)

// Doc returns the documentation of the check named name from the source of
// its doc.go: the part of the package comment under the heading
// "# Analyzer name", up to the next heading of that form. Keeping the
// documentation in doc.go, embedded into Analyzer.Doc, means -explain, the
// SARIF rules and godoc all show the same text. It panics if the section is
// missing, which the check's tests catch at once.
func Doc(docGo, name string) string {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", docGo, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil || f.Doc == nil {
		panic("report.Doc: doc.go of " + name + " has no package comment")
	}
	text := f.Doc.Text()
	_, section, ok := strings.Cut(text, "# Analyzer "+name+"\n")
	if !ok {
		panic("report.Doc: no \"# Analyzer " + name + "\" section in doc.go")
	}
	if i := strings.Index(section, "\n# Analyzer "); i >= 0 {
		section = section[:i]
	}
	return strings.TrimSpace(section)
}
