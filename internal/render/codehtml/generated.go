package codehtml

import (
	"bytes"
	"regexp"
)

// generatedRE is Go's marker of a generated file, as "go help generate"
// defines it.
var generatedRE = regexp.MustCompile(`^// Code generated .* DO NOT EDIT\.$`)

// Generated reports whether a Go file says it is generated: a line
// "// Code generated … DO NOT EDIT." before the first line that is neither
// blank nor a line comment (the convention go/ast.IsGenerated reads). Such
// files (protobuf, deepcopy, clientsets) are large and rarely read line by
// line, so the site renders them with Options.DeclsOnly.
func Generated(src []byte) bool {
	for len(src) > 0 {
		line := src
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			src = nil
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		switch {
		case len(bytes.TrimSpace(line)) == 0:
		case generatedRE.Match(line):
			return true
		case !bytes.HasPrefix(line, []byte("//")):
			return false
		}
	}
	return false
}
