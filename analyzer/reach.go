package analyzer

// This file keeps, of the values assigned to a local variable, those
// whose assignment can reach a given use of it: a reaching-definitions
// walk over the control-flow graph golang.org/x/tools/go/cfg builds for
// the function that declares the variable. A value assigned in a branch
// that returns, continues or breaks away before the use, or that is
// assigned again on every path to the use, is not among the values the
// use can see.

import (
	"go/ast"
	"go/token"
	"go/types"
	"sync"

	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/cfg"
	"golang.org/x/tools/go/packages"
)

// cfgCache holds the control-flow graph of each function body built so
// far; the passes evaluate arguments concurrently.
type cfgCache struct {
	mu sync.Mutex
	m  map[*ast.BlockStmt]*cfg.CFG
}

func (c *cfgCache) of(body *ast.BlockStmt) *cfg.CFG {
	c.mu.Lock()
	defer c.mu.Unlock()
	if g, ok := c.m[body]; ok {
		return g
	}
	if c.m == nil {
		c.m = map[*ast.BlockStmt]*cfg.CFG{}
	}
	g := cfg.New(body, func(*ast.CallExpr) bool { return true })
	c.m[body] = g
	return g
}

// reaching returns, of the origins os of the local variable obj, those
// whose assignment reaches the use of obj at use, written in pkg. It
// returns os unchanged whenever the walk cannot tell: obj is not declared
// in the function body the use is in, it is assigned in a func literal
// of that body, through its address, or as a range key or value, or an
// assignment or the use is not found in the graph.
func (ix *index) reaching(pkg *packages.Package, obj *types.Var, use ast.Expr, os []origin) []origin {
	if len(os) < 2 || obj.IsField() || obj.Parent() == nil || obj.Parent() == obj.Pkg().Scope() {
		return os
	}
	body := enclosingBody(pkg, use.Pos())
	if body == nil || obj.Pos() < body.Pos() || obj.Pos() >= body.End() {
		return os
	}
	if !plainlyAssigned(pkg.TypesInfo, body, obj) {
		return os
	}
	g := ix.cfgs.of(body)
	if ub, _ := nodeAt(g, use.Pos(), use.End()); ub == nil {
		return os
	}
	var kept []origin
	for _, o := range os {
		if o.pkg != pkg || o.expr.Pos() < body.Pos() || o.expr.End() > body.End() {
			kept = append(kept, o)
			continue
		}
		db, di := nodeAt(g, o.expr.Pos(), o.expr.End())
		if db == nil || reaches(pkg.TypesInfo, obj, db, di, use.Pos()) {
			kept = append(kept, o)
		}
	}
	return kept
}

// enclosingBody returns the body of the innermost function (declaration
// or literal) of pkg's syntax that contains pos.
func enclosingBody(pkg *packages.Package, pos token.Pos) *ast.BlockStmt {
	for _, f := range pkg.Syntax {
		if pos < f.FileStart || pos >= f.FileEnd {
			continue
		}
		path, _ := astutil.PathEnclosingInterval(f, pos, pos)
		for _, n := range path {
			switch n := n.(type) {
			case *ast.FuncLit:
				return n.Body
			case *ast.FuncDecl:
				return n.Body
			}
		}
		return nil
	}
	return nil
}

// plainlyAssigned reports whether every assignment of obj in body is one
// the graph shows in place: not inside a func literal, not through its
// address, not as a range key or value.
func plainlyAssigned(info *types.Info, body *ast.BlockStmt, obj *types.Var) bool {
	ok := true
	is := func(e ast.Expr) bool {
		id, isID := ast.Unparen(e).(*ast.Ident)
		return isID && (info.Defs[id] == obj || info.Uses[id] == obj)
	}
	var visit func(n ast.Node, inLit bool) bool
	visit = func(n ast.Node, inLit bool) bool {
		ast.Inspect(n, func(n ast.Node) bool {
			if !ok {
				return false
			}
			switch n := n.(type) {
			case *ast.FuncLit:
				visit(n.Body, true)
				return false
			case *ast.UnaryExpr:
				if n.Op == token.AND && is(n.X) {
					ok = false
				}
			case *ast.RangeStmt:
				if (n.Key != nil && is(n.Key)) || (n.Value != nil && is(n.Value)) {
					ok = false
				}
			case *ast.AssignStmt:
				if inLit {
					for _, l := range n.Lhs {
						if is(l) {
							ok = false
						}
					}
				}
			}
			return true
		})
		return ok
	}
	return visit(body, false)
}

// nodeAt returns the block of g and the index in it of the node that
// contains [pos, end), or nil.
func nodeAt(g *cfg.CFG, pos, end token.Pos) (*cfg.Block, int) {
	for _, b := range g.Blocks {
		for i, n := range b.Nodes {
			if n.Pos() <= pos && end <= n.End() {
				return b, i
			}
		}
	}
	return nil, -1
}

// reaches reports whether the assignment of obj in node i of block db
// reaches the use at pos: some path from it comes to the node holding the
// use before a node that assigns obj again.
func reaches(info *types.Info, obj *types.Var, db *cfg.Block, di int, pos token.Pos) bool {
	seen := map[*cfg.Block]bool{}
	// scan walks b's nodes from i; it reports whether the use was met,
	// and whether the path goes on past b.
	scan := func(b *cfg.Block, i int) (found, goesOn bool) {
		for _, n := range b.Nodes[i:] {
			if n.Pos() <= pos && pos < n.End() {
				return true, false
			}
			if assigns(info, n, obj) {
				return false, false
			}
		}
		return false, true
	}
	found, goesOn := scan(db, di+1)
	if found {
		return true
	}
	if !goesOn {
		return false
	}
	work := append([]*cfg.Block(nil), db.Succs...)
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[b] {
			continue
		}
		seen[b] = true
		found, goesOn := scan(b, 0)
		if found {
			return true
		}
		if goesOn {
			work = append(work, b.Succs...)
		}
	}
	return false
}

// assigns reports whether the graph node n gives obj a new value that
// replaces the old one: a plain or defining assignment, or a var
// declaration, naming it on the left.
func assigns(info *types.Info, n ast.Node, obj *types.Var) bool {
	is := func(id *ast.Ident) bool { return info.Defs[id] == obj || info.Uses[id] == obj }
	switch n := n.(type) {
	case *ast.AssignStmt:
		if n.Tok != token.ASSIGN && n.Tok != token.DEFINE {
			return false
		}
		for _, l := range n.Lhs {
			if id, ok := ast.Unparen(l).(*ast.Ident); ok && is(id) {
				return true
			}
		}
	case *ast.ValueSpec:
		for _, id := range n.Names {
			if is(id) {
				return true
			}
		}
	case *ast.DeclStmt:
		if gd, ok := n.Decl.(*ast.GenDecl); ok {
			for _, s := range gd.Specs {
				if assigns(info, s, obj) {
					return true
				}
			}
		}
	}
	return false
}
