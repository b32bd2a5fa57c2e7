package analyzer

import (
	"bytes"
	"github.com/kubewalk/kubewalk/analyzer/fact"
	"go/ast"
	"go/token"
	"slices"
	"strings"
)

// appendSymbols appends the package-level declarations of f (file rel of
// package pkgPath) to syms. It works on syntax alone, at parse time, so
// that dependency packages — parsed without comments and stripped of
// function bodies right after — are indexed too: a doc comment is found by
// scanning src upwards from the declaration for a block of "//" lines with
// no blank line between, which is what go/ast calls the Doc of a gofmt'ed
// declaration.
func appendSymbols(syms []fact.Symbol, pkgPath, rel string, fset *token.FileSet, f *ast.File, src []byte) []fact.Symbol {
	tf := fset.File(f.FileStart)
	if tf == nil {
		return syms
	}
	loc := func(from, to token.Pos) fact.Location {
		return fact.Location{Path: rel, StartLine: docStart(tf, src, from), EndLine: tf.Line(to)}
	}
	add := func(name, kind string, decl, body fact.Location) {
		if name == "_" {
			return
		}
		syms = append(syms, fact.Symbol{Name: pkgPath + "." + name, Kind: kind, Decl: decl, Body: body})
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			var body fact.Location
			if d.Body != nil {
				body = fact.Location{Path: rel, StartLine: tf.Line(d.Body.Lbrace), EndLine: tf.Line(d.Body.Rbrace)}
			}
			name, kind := d.Name.Name, "func"
			if d.Recv != nil && len(d.Recv.List) == 1 {
				recv := recvTypeName(d.Recv.List[0].Type)
				if recv == "" {
					continue
				}
				name, kind = recv+"."+name, "method"
			}
			add(name, kind, loc(d.Pos(), d.End()-1), body)
		case *ast.GenDecl:
			if d.Tok == token.IMPORT {
				continue
			}
			kind := map[token.Token]string{token.TYPE: "type", token.VAR: "var", token.CONST: "const"}[d.Tok]
			grouped := d.Lparen.IsValid()
			for _, spec := range d.Specs {
				from, to := d.Pos(), d.End()-1
				if grouped {
					from, to = spec.Pos(), spec.End()-1
				}
				switch s := spec.(type) {
				case *ast.TypeSpec:
					add(s.Name.Name, kind, loc(from, to), fact.Location{})
				case *ast.ValueSpec:
					for _, n := range s.Names {
						add(n.Name, kind, loc(from, to), fact.Location{})
					}
				}
			}
		}
	}
	return syms
}

// recvTypeName returns T for a receiver of type T, *T, T[P] or *T[P].
func recvTypeName(x ast.Expr) string {
	for {
		switch t := x.(type) {
		case *ast.Ident:
			return t.Name
		case *ast.StarExpr:
			x = t.X
		case *ast.ParenExpr:
			x = t.X
		case *ast.IndexExpr:
			x = t.X
		case *ast.IndexListExpr:
			x = t.X
		default:
			return ""
		}
	}
}

// docStart returns the first line of the doc comment of the declaration
// starting at pos: the run of lines directly above it whose first
// non-blank characters are "//". Without such lines it is pos's line.
func docStart(tf *token.File, src []byte, pos token.Pos) int {
	line := tf.Line(pos)
	for line > 1 {
		start := tf.Offset(tf.LineStart(line - 1))
		end := tf.Offset(tf.LineStart(line))
		if start < 0 || end > len(src) || start >= end {
			break
		}
		if !bytes.HasPrefix(bytes.TrimLeft(src[start:end], " \t"), []byte("//")) {
			break
		}
		line--
	}
	return line
}

// sortSymbols sorts by name, then position (a name can repeat: init).
func sortSymbols(syms []fact.Symbol) {
	slices.SortFunc(syms, func(a, b fact.Symbol) int {
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		if c := strings.Compare(a.Decl.Path, b.Decl.Path); c != 0 {
			return c
		}
		return a.Decl.StartLine - b.Decl.StartLine
	})
}
