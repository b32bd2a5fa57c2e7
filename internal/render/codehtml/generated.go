package codehtml

import (
	"go/ast"
	"go/parser"
	"go/token"
)

// Generated reports whether a Go file says it is generated: a line
// "// Code generated … DO NOT EDIT." in a comment before the package
// clause, after any line or block comment (a licence, build constraints),
// as go/ast.IsGenerated reads https://go.dev/s/generatedcode. Such files
// (protobuf, deepcopy, clientsets, informers) are large and rarely read
// line by line, so the site renders them with Options.DeclsOnly. Only the
// package clause is parsed; a file that does not parse that far is not
// taken as generated.
func Generated(src []byte) bool {
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.PackageClauseOnly|parser.ParseComments)
	return err == nil && ast.IsGenerated(f)
}
