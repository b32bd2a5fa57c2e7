package walkthrough

import (
	"bytes"
	"fmt"
)

// goldmark's parse time is quadratic in a few shapes of input, and a
// walkthrough's author (or a pull request against a directory that CI
// checks) controls the input. The shapes, each taking seconds for some
// tens of KiB (bench/README.md has the times):
//
//   - "- - - … x", lists opened on one line: every nesting level scans
//     the rest of the line for a thematic break; "> > > …" and
//     "1. 1. 1. …" alike;
//   - "[a](" on one line: each "(" scans to the end of the line for a
//     link destination;
//   - "[a](" a line, in one paragraph: quadratic in the paragraph.
//
// Parse refuses such input before goldmark sees it, with the limits
// below, so that parse time grows linearly with the file: no line costs
// more than maxLineBytes², no run of lines more than maxBlockBytes², and
// nesting on a line is bounded. Each is far beyond what prose needs (the
// built-in walkthroughs' lines, paragraphs, code blocks and lists stay
// well within them).
const (
	// maxLineBytes bounds a line.
	maxLineBytes = 4 << 10
	// maxBlockBytes bounds a run of lines without a blank one: a
	// paragraph, a table, a code block.
	maxBlockBytes = 32 << 10
	// maxNesting bounds the list items and block quotes a line opens.
	maxNesting = 16
)

// checkLimits returns an error naming the first place src goes beyond a
// limit, or nil. It takes time linear in len(src). src has LF line ends.
func checkLimits(file string, src []byte) *Error {
	if len(src) > MaxFileBytes {
		return tooLarge(file, int64(len(src)))
	}
	blockStart, blockBytes := 0, 0
	for n, rest := 1, src; len(rest) > 0; n++ {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		if d := nesting(line); d > maxNesting {
			return limitError(file, n, "%d lists or block quotes opened on one line, more than %d: nest them less deeply", d, maxNesting)
		}
		if len(line) > maxLineBytes {
			return limitError(file, n, "a line of %d bytes, more than %d: break it (the lines of a paragraph join up, so the page stays the same)", len(line), maxLineBytes)
		}
		if len(bytes.TrimSpace(line)) == 0 {
			blockBytes = 0
			continue
		}
		if blockBytes == 0 {
			blockStart = n
		}
		if blockBytes += len(line) + 1; blockBytes > maxBlockBytes {
			return limitError(file, blockStart, "more than %d bytes from here without a blank line: separate paragraphs, tables or code blocks with blank lines", maxBlockBytes)
		}
	}
	return nil
}

func limitError(file string, line int, format string, args ...any) *Error {
	return &Error{File: file, Line: line, Col: 1, Err: ErrTooLarge, Msg: fmt.Sprintf(format, args...)}
}

// nesting counts the container markers at the start of line, one after
// the other: "> ", "- ", "* ", "+ ", "1. ", "1) ". It may count more than
// goldmark opens (in a code block, say), never fewer. A thematic break
// ("* * * *", "- - -") opens nothing.
func nesting(line []byte) int {
	if thematicBreak(line) {
		return 0
	}
	d := 0
	for i := 0; ; {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		if i >= len(line) {
			return d
		}
		switch c := line[i]; {
		case c == '>':
			i++
		case c == '-' || c == '*' || c == '+':
			if i+1 < len(line) && line[i+1] != ' ' && line[i+1] != '\t' {
				return d
			}
			i++
		case c >= '0' && c <= '9':
			j := i
			for j < len(line) && j-i < 9 && line[j] >= '0' && line[j] <= '9' {
				j++
			}
			if j >= len(line) || (line[j] != '.' && line[j] != ')') || (j+1 < len(line) && line[j+1] != ' ' && line[j+1] != '\t') {
				return d
			}
			i = j + 1
		default:
			return d
		}
		d++
	}
}

// thematicBreak reports whether line is three or more of one of -, * or _
// and spaces or tabs, and nothing else.
func thematicBreak(line []byte) bool {
	var mark byte
	n := 0
	for _, c := range line {
		switch {
		case c == ' ' || c == '\t':
		case (c == '-' || c == '*' || c == '_') && (mark == 0 || c == mark):
			mark = c
			n++
		default:
			return false
		}
	}
	return n >= 3
}
