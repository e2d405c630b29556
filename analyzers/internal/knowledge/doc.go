package knowledge

import (
	"fmt"
	"strings"
)

// DocPath is the page Markdown is written to, from the repository's root.
const DocPath = "docs/checks/knowledge.md"

// Markdown returns the page that lists every list: its name, what it holds,
// what the suite does with it, the flag that changes it, and its entries.
func Markdown() []byte {
	var b strings.Builder
	b.WriteString(`# What the checks know: the lists of names

<!-- Generated from analyzers/internal/knowledge by
go test ./analyzers/internal/knowledge -update; do not edit. -->

Every list of names a check consults (functions, methods, import paths,
path elements, words) lives in package ` + "`analyzers/internal/knowledge`" + `,
and is listed here. Where a list has a flag, the flag takes a
comma-separated list in the notation of the
[function-list flags](../../README.md#naming-functions-in-flags): each entry
is added to the built-in ones, and ` + "`-ENTRY`" + ` removes a built-in entry
(an exemption you do not want, a name that means something else in your
code); setting the flag again replaces what it set before. A function
list's flag is the check's function flag itself, which names functions in
the notation of the README and takes a built-in one out the same way
(` + "`-resolverpool.resolve=-net/http.Client.Do`" + `). In golangci-lint, the
same text is a setting of the check's linter
([golangci-lint](../golangci-lint.md)).

` + "```sh" + `
queuecheck -unboundedqueue.messagereads=Poll,-Receive ./...
go vet -vettool=$(which queuecheck) -waittiming.quiet=example.com/metrics ./...
` + "```" + `

Words and name endings are lower case and match a name lower-cased first.

| list | holds | entries | flag |
| --- | --- | --- | --- |
`)
	for _, l := range all {
		fmt.Fprintf(&b, "| [%s](#%s) | %s | %d | %s |\n", l.Name, l.Name, l.Kind, len(l.builtin), flagText(l))
	}
	for _, l := range all {
		fmt.Fprintf(&b, "\n## %s\n\n%s.\n\n", l.Name, capitalize(l.Doc))
		fmt.Fprintf(&b, "Holds %s; flag: %s.\n\n", l.Kind, flagText(l))
		quoted := make([]string, len(l.builtin))
		for i, e := range l.builtin {
			quoted[i] = "`" + e + "`"
		}
		fmt.Fprintf(&b, "Entries (%d): %s.\n", len(l.builtin), strings.Join(quoted, ", "))
	}
	return []byte(b.String())
}

func flagText(l *List) string {
	if l.Flag == "" {
		return "none"
	}
	return "`-" + l.Flag + "`"
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
