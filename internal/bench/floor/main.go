// Command floor is the benchmark's baseline: the x/tools multichecker with one
// trivial analyzer that only asks for the shared inspect pass. It loads,
// parses and type-checks exactly what an analysis driver must, and does
// nothing else, so queuecheck's cost is read as a ratio to it.
package main

import (
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/multichecker"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
)

var trivial = &analysis.Analyzer{
	Name:     "trivial",
	Doc:      "trivial: walks nothing; the floor of any analysis driver",
	Requires: []*analysis.Analyzer{inspect.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		_ = pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
		return nil, nil
	},
}

// nonce does nothing; the benchmark gives it a new value on every go vet run,
// because go vet keys its result cache on analyzer flags.
var nonce string

func init() {
	trivial.Flags.StringVar(&nonce, "nonce", "", "ignored; changes go vet's cache key")
}

func main() { multichecker.Main(trivial) }
