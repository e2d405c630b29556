package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"strings"
)

// A tsvRow is one data row of a tab-separated file, with its line number.
type tsvRow struct {
	line int
	cols []string
}

// readTSV reads the tab-separated file name: a header line naming columns,
// then rows of exactly that many columns. Blank lines and lines starting
// with # are ignored.
func readTSV(name string, columns []string) ([]tsvRow, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	if strings.HasSuffix(name, ".gz") {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		if data, err = io.ReadAll(zr); err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
	}
	var rows []tsvRow
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	line := 0
	header := false
	for sc.Scan() {
		line++
		text := sc.Text()
		if strings.TrimSpace(text) == "" || strings.HasPrefix(text, "#") {
			continue
		}
		cols := strings.Split(text, "\t")
		if !header {
			if strings.Join(cols, "\t") != strings.Join(columns, "\t") {
				return nil, fmt.Errorf("%s:%d: the header must be %q", name, line, strings.Join(columns, "\\t"))
			}
			header = true
			continue
		}
		if len(cols) != len(columns) {
			return nil, fmt.Errorf("%s:%d: %d columns, want %d (%s)", name, line, len(cols), len(columns), strings.Join(columns, ", "))
		}
		rows = append(rows, tsvRow{line, cols})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if !header {
		return nil, fmt.Errorf("%s: no header line", name)
	}
	return rows, nil
}
