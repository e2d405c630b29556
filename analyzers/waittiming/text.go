package waittiming

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
)

// textWith returns the source of node with the edits (all inside it) applied.
func (fx *fixer) textWith(node ast.Node, es ...analysis.TextEdit) string {
	src := edits.Source(fx.pass, node)
	return applyAt(src, node.Pos(), es)
}

func applyAt(src string, base token.Pos, es []analysis.TextEdit) string {
	es = slices.Clone(es)
	slices.SortStableFunc(es, func(a, b analysis.TextEdit) int { return int(a.Pos - b.Pos) })
	var b strings.Builder
	last := 0
	for _, e := range es {
		start, end := int(e.Pos-base), int(e.End-base)
		if e.End < e.Pos {
			end = start
		}
		if start < last || end > len(src) {
			continue
		}
		b.WriteString(src[last:start])
		b.Write(e.NewText)
		last = end
	}
	b.WriteString(src[last:])
	return b.String()
}

func dedent(text, indent string) string {
	lines := strings.Split(text, "\n")
	for i := 1; i < len(lines); i++ {
		lines[i] = strings.TrimPrefix(lines[i], indent)
	}
	return strings.Join(lines, "\n")
}

func fileContent(pass *analysis.Pass, pos token.Pos) []byte {
	tf := pass.Fset.File(pos)
	if tf == nil {
		return nil
	}
	content, err := edits.FileContent(pass, tf)
	if err != nil {
		return nil
	}
	return content
}

func signatureOf(info *types.Info, call *ast.CallExpr) *types.Signature {
	t := info.TypeOf(call.Fun)
	if t == nil {
		return nil
	}
	sig, _ := t.Underlying().(*types.Signature)
	return sig
}

// isVariadicAny reports whether sig ends in ...any (...interface{}).
func isVariadicAny(sig *types.Signature) bool {
	if !sig.Variadic() {
		return false
	}
	s, ok := sig.Params().At(sig.Params().Len() - 1).Type().(*types.Slice)
	if !ok {
		return false
	}
	it, ok := s.Elem().Underlying().(*types.Interface)
	return ok && it.Empty()
}

func isString(t types.Type) bool {
	if t == nil {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

func isStringSlice(t types.Type) bool {
	if t == nil {
		return false
	}
	s, ok := t.Underlying().(*types.Slice)
	return ok && isString(s.Elem())
}

func isStringConst(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.Value != nil && tv.Value.Kind() == constant.String
}

func stringConst(info *types.Info, e ast.Expr) string {
	if tv, ok := info.Types[e]; ok && tv.Value != nil && tv.Value.Kind() == constant.String {
		return constant.StringVal(tv.Value)
	}
	return ""
}

// usesVar reports whether node refers to v.
func usesVar(info *types.Info, node ast.Node, v *types.Var) bool {
	return code.AnyNode(node, nil, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && info.Uses[id] == v {
			return true
		}
		return false
	})
}
