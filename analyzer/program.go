package analyzer

import (
	"github.com/kubewalk/kubewalk/analyzer/fact"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/packages"
)

// Program is a loaded tree: what the discovery passes run over. Root
// packages carry full syntax (with comments), types and a complete
// types.Info; dependencies carry types only — their Syntax and TypesInfo
// are nil (see Load) — so the span of a dependency's declaration comes
// from DeclLoc or Symbol. Everything shares one FileSet, so positions of
// dependency objects still map to files and lines.
type Program struct {
	Fset *token.FileSet
	// Dir is the tree root, absolute and clean.
	Dir string
	// Roots are the root packages, sorted by import path.
	Roots []*packages.Package
	// Packages holds every loaded package by import path.
	Packages map[string]*packages.Package

	// symbols is the symbol index (sorted by name), set by the loader:
	// dependencies keep no syntax, so this is where their declaration
	// spans come from.
	symbols []fact.Symbol
}

// Symbol returns the in-tree declaration named name (go doc style, as
// ObjectName returns), in any loaded package — roots or dependencies.
func (p *Program) Symbol(name string) (fact.Symbol, bool) {
	return lookupSymbol(p.symbols, name)
}

// DeclLoc returns the span of obj's declaration (from its doc comment, as
// Symbol.Decl), or the zero Location when obj is not a package-level
// object or method declared in the tree. Use it for objects of dependency
// packages, whose syntax is not kept after loading.
func (p *Program) DeclLoc(obj types.Object) fact.Location {
	if s, ok := p.Symbol(ObjectName(obj)); ok {
		return s.Decl
	}
	return fact.Location{}
}

// RelPath returns filename relative to the tree root with forward slashes,
// and false when the file lies outside the tree.
func (p *Program) RelPath(filename string) (string, bool) {
	// Fast path: a clean absolute name under Dir (every name the loader
	// gives the FileSet). filepath.Rel showed up in profiles.
	if len(filename) > len(p.Dir)+1 && filename[len(p.Dir)] == filepath.Separator && strings.HasPrefix(filename, p.Dir) &&
		!strings.Contains(filename, string(filepath.Separator)+"..") {
		return filepath.ToSlash(filename[len(p.Dir)+1:]), true
	}
	rel, err := filepath.Rel(p.Dir, filename)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// Loc returns the lines from..to span, or the zero Location when the span
// lies outside the tree or is invalid.
func (p *Program) Loc(from, to token.Pos) fact.Location {
	if !from.IsValid() {
		return fact.Location{}
	}
	if !to.IsValid() {
		to = from
	}
	a, b := p.Fset.Position(from), p.Fset.Position(to)
	rel, ok := p.RelPath(a.Filename)
	if !ok {
		return fact.Location{}
	}
	return fact.Location{Path: rel, StartLine: a.Line, EndLine: b.Line}
}

// ObjectName returns the go doc style name of a package-level object or a
// method: "importpath.Name" or "importpath.Type.Method" (the receiver's
// pointer-ness is dropped, as go doc does). It returns "" for objects that
// have no such name (locals, fields, objects of the universe).
func ObjectName(obj types.Object) string {
	if obj == nil || obj.Pkg() == nil {
		return ""
	}
	if fn, ok := obj.(*types.Func); ok {
		sig, _ := fn.Type().(*types.Signature)
		if sig != nil && sig.Recv() != nil {
			t := sig.Recv().Type()
			if ptr, ok := t.(*types.Pointer); ok {
				t = ptr.Elem()
			}
			switch t := types.Unalias(t).(type) {
			case *types.Named:
				return obj.Pkg().Path() + "." + t.Obj().Name() + "." + fn.Name()
			case *types.Interface:
				// An interface method: named after its interface where the
				// caller knows it; here we only have the method.
				return ""
			}
			return ""
		}
	}
	if obj.Parent() != obj.Pkg().Scope() {
		return ""
	}
	return obj.Pkg().Path() + "." + obj.Name()
}
