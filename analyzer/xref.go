package analyzer

import (
	"github.com/kubewalk/kubewalk/analyzer/fact"
	"go/ast"
	"go/types"
	"sort"
)

// buildXrefs returns the identifier tables of the root packages' files in
// the tree, sorted by path. Every identifier bound to an object is listed:
// the site links uses to declarations and colours identifiers by kind.
func buildXrefs(prog *Program) []fact.FileXref {
	var out []fact.FileXref
	for _, pkg := range prog.Roots {
		info := pkg.TypesInfo
		if info == nil {
			continue
		}
		for _, f := range pkg.Syntax {
			tf := prog.Fset.File(f.FileStart)
			if tf == nil {
				continue
			}
			rel, ok := prog.RelPath(tf.Name())
			if !ok {
				continue
			}
			x := fact.FileXref{Path: rel}
			ast.Inspect(f, func(n ast.Node) bool {
				id, ok := n.(*ast.Ident)
				if !ok {
					return true
				}
				obj, def := info.Defs[id], true
				if obj == nil {
					obj, def = info.Uses[id], false
				}
				if obj == nil {
					return true
				}
				ident := fact.Ident{Off: tf.Offset(id.Pos()), Len: len(id.Name), Kind: objectKind(obj), Def: def}
				if obj.Pkg() != nil && obj.Pos().IsValid() {
					ident.Target = prog.Loc(obj.Pos(), obj.Pos())
				}
				x.Idents = append(x.Idents, ident)
				return true
			})
			sort.Slice(x.Idents, func(i, j int) bool { return x.Idents[i].Off < x.Idents[j].Off })
			out = append(out, x)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// identKinds are the values of Ident.Kind, in the order the cache encodes
// them.
var identKinds = []string{"func", "method", "type", "var", "const", "field", "pkg", "label", "builtin"}

// objectKind returns the Ident.Kind of obj.
func objectKind(obj types.Object) string {
	if obj.Pkg() == nil {
		return "builtin" // universe: int, error, nil, true, len, …
	}
	switch obj := obj.(type) {
	case *types.Func:
		if sig, ok := obj.Type().(*types.Signature); ok && sig.Recv() != nil {
			return "method"
		}
		return "func"
	case *types.TypeName:
		return "type"
	case *types.Var:
		if obj.IsField() {
			return "field"
		}
		return "var"
	case *types.Const:
		return "const"
	case *types.PkgName:
		return "pkg"
	case *types.Label:
		return "label"
	}
	return "builtin"
}
