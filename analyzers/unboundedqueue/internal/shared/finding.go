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

// NewFinding returns the finding of node in category, with message and one
// related position: related, described by relatedMsg.
func NewFinding(node ast.Node, category, message string, related ast.Node, relatedMsg string) *Finding {
	return &Finding{Diag: analysis.Diagnostic{
		Pos:      node.Pos(),
		End:      node.End(),
		Category: category,
		Message:  message,
		Related:  []analysis.RelatedInformation{{Pos: related.Pos(), End: related.End(), Message: relatedMsg}},
	}}
}
