package shared

import (
	"go/ast"

	"golang.org/x/tools/go/analysis"
)

// A Finding is one diagnostic waiting for its fix to be completed with the
// package-level declarations it needs.
type Finding struct {
	Diag  analysis.Diagnostic // without SuggestedFixes
	Msg   string              // the fix's message
	Edits []analysis.TextEdit
	File  *ast.File
	// Anchor is the top-level declaration before which the fix declares its
	// constants and sentinel errors, or nil.
	Anchor ast.Decl
}
