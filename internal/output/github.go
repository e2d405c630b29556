package output

import (
	"fmt"
	"io"
	"strings"
)

// GitHub writes one workflow command per finding, which GitHub Actions shows
// as an annotation on the pull request's diff:
//
//	::error file=F,line=L,col=C,endLine=L2,endColumn=C2,title=T::message
func GitHub(w io.Writer, r *Result, opts Options) error {
	for _, f := range r.Findings {
		msg := f.Message
		if f.URL != "" {
			msg += " (" + f.URL + ")"
		}
		command := "error"
		if f.IsWhy() {
			command = "notice" // no finding: why a candidate is not one
		}
		_, err := fmt.Fprintf(w, "::%s file=%s,line=%d,col=%d,endLine=%d,endColumn=%d,title=%s::%s\n", command,
			escapeProperty(opts.rel(f.Pos.Filename)), f.Pos.Line, f.Pos.Column, max(f.End.Line, f.Pos.Line), endColumn(f),
			escapeProperty("queuecheck "+f.Category), escapeData(msg))
		if err != nil {
			return err
		}
	}
	return nil
}

func endColumn(f Finding) int {
	if f.End.Line != f.Pos.Line || f.End.Column == 0 {
		return f.Pos.Column
	}
	return f.End.Column
}

// escapeData and escapeProperty follow the escaping rules of the GitHub
// Actions toolkit (core/command.ts).
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
