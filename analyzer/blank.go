package analyzer

import "bytes"

// blankBodies returns a copy of Go source src with the insides of its
// top-level function bodies replaced by spaces (newlines kept), or src
// itself when there is nothing to blank. Every byte keeps its offset, so
// positions, line numbers and the braces of each body are unchanged, but
// the parser has next to nothing to do inside a body. Dependencies' bodies
// are never type-checked, and parsing them was most of the parse time.
//
// It is a byte-level lexer, not a parser: it skips comments, strings and
// runes, counts parentheses, brackets and braces, and takes as a body the
// first "{" at depth 0 of a declaration that starts with "func" in column
// 0 (gofmt'ed code), unless the brace follows the keyword struct or
// interface (a result type). A newline at depth 0 ends a signature without
// a body. Bodies holding //line directives are left alone: blanking those
// would move later positions. Code it misreads fails to parse, and the
// loader then parses the original source.
//
// It stays one function of about 85 lines: one loop over the bytes whose
// state (depths, whether a signature is open, the previous word) every
// case reads and writes; cut into pieces, each would take and return all
// of it.
func blankBodies(src []byte) []byte {
	var out []byte
	n := len(src)
	paren, depth := 0, 0
	inSig := false // after a top-level "func", before its body
	prevWord := "" // the previous token, when it was an identifier
	i := 0
	for i < n {
		c := src[i]
		switch {
		case c == '/' && i+1 < n && src[i+1] == '/':
			for i < n && src[i] != '\n' {
				i++
			}
			continue
		case c == '/' && i+1 < n && src[i+1] == '*':
			j := bytes.Index(src[i+2:], []byte("*/"))
			if j < 0 {
				return src
			}
			i += 2 + j + 2
			continue
		case c == '"' || c == '\'' || c == '`':
			i = skipQuoted(src, i)
			if i < 0 {
				return src
			}
			prevWord = ""
			continue
		case c == '\n':
			if inSig && paren == 0 && depth == 0 {
				inSig = false // a declaration without body
			}
		case c == ' ' || c == '\t' || c == '\r':
		case isWordByte(c):
			j := i
			for j < n && isWordByte(src[j]) {
				j++
			}
			word := string(src[i:j])
			if word == "func" && depth == 0 && paren == 0 && (i == 0 || src[i-1] == '\n') {
				inSig = true
			}
			prevWord = word
			i = j
			continue
		case c == '(' || c == '[':
			paren++
		case c == ')' || c == ']':
			paren--
		case c == '{':
			if inSig && depth == 0 && paren == 0 && prevWord != "struct" && prevWord != "interface" {
				end := matchBrace(src, i)
				if end < 0 {
					return src
				}
				if body := src[i+1 : end]; !bytes.Contains(body, []byte("//line ")) && !bytes.Contains(body, []byte("/*line ")) {
					if out == nil {
						out = append([]byte(nil), src...)
					}
					for k := i + 1; k < end; k++ {
						if out[k] != '\n' {
							out[k] = ' '
						}
					}
				}
				inSig = false
				prevWord = ""
				i = end + 1
				continue
			}
			depth++
		case c == '}':
			depth--
		}
		if c != ' ' && c != '\t' && c != '\r' {
			prevWord = ""
		}
		i++
	}
	if out == nil {
		return src
	}
	return out
}

func isWordByte(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c >= 0x80
}

// skipQuoted returns the index after the string or rune literal at i, or
// -1 when it does not end.
func skipQuoted(src []byte, i int) int {
	q := src[i]
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case q:
			return j + 1
		case '\\':
			if q != '`' {
				j++
			}
		case '\n':
			if q != '`' {
				return -1
			}
		}
	}
	return -1
}

// matchBrace returns the index of the "}" matching the "{" at i, or -1.
func matchBrace(src []byte, i int) int {
	depth := 0
	for i < len(src) {
		switch c := src[i]; {
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			j := bytes.Index(src[i+2:], []byte("*/"))
			if j < 0 {
				return -1
			}
			i += 2 + j + 2
			continue
		case c == '"' || c == '\'' || c == '`':
			if i = skipQuoted(src, i); i < 0 {
				return -1
			}
			continue
		case c == '{':
			depth++
		case c == '}':
			depth--
			if depth == 0 {
				return i
			}
		}
		i++
	}
	return -1
}
