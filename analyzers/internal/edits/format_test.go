package edits

import (
	"testing"
)

func TestFormatStmts(t *testing.T) {
	for _, test := range []struct {
		name, text, indent, want string
	}{
		{
			name:   "spacing depends on where an expression sits",
			text:   "x := a+b*c\nch <- x*2",
			indent: "\t",
			want:   "x := a + b*c\n\tch <- x * 2",
		},
		{
			name:   "nested statements are indented from the first line",
			text:   "select {\ncase ch <- v:\nreturn nil\ncase <-ctx.Done():\nreturn ctx.Err()\n}",
			indent: "\t\t",
			want:   "select {\n\t\tcase ch <- v:\n\t\t\treturn nil\n\t\tcase <-ctx.Done():\n\t\t\treturn ctx.Err()\n\t\t}",
		},
		{
			name:   "comments stay, blank lines stay empty",
			text:   "a := 1 // one\n\nb := a",
			indent: "\t",
			want:   "a := 1 // one\n\n\tb := a",
		},
		{
			name:   "a string literal's continuation lines stay as they are",
			text:   "go handle(j, `first\n\tsecond\nthird`)",
			indent: "\t\t",
			want:   "go handle(j, `first\n\tsecond\nthird`)",
		},
		{
			name:   "lines after a string literal are indented",
			text:   "if ok {\nlog(`a\nb`)\nx++\n}",
			indent: "\t",
			want:   "if ok {\n\t\tlog(`a\nb`)\n\t\tx++\n\t}",
		},
	} {
		t.Run(test.name, func(t *testing.T) {
			got, ok := FormatStmts(test.text, test.indent)
			if !ok || got != test.want {
				t.Errorf("FormatStmts(%q, %q) = %q, %v; want %q", test.text, test.indent, got, ok, test.want)
			}
		})
	}
	if got, ok := FormatStmts("x := (", "\t"); ok {
		t.Errorf("FormatStmts of a broken statement = %q, true; want false", got)
	}
}
