package walkthrough

// Steps: a walkthrough is split at its level-2 headings. A step heading's
// attributes ({from=… to=… label=… #id}, goldmark's heading attribute
// syntax) carry its sequence-diagram message; a translated step's {en=…}
// names the English step it was translated from (stepHash). Attributes are read here and
// then removed from the node: no attribute written in Markdown is ever
// rendered as given, so {onclick=…} or {style=…} cannot reach the page
// (they are errors besides).

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/yuin/goldmark/ast"
)

// StepInfo is a step heading as parsed, before resolution.
type StepInfo struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Line  int    `json:"line"`
	// From, To and Label are as written (a translation inherits From and
	// To from its English original).
	From  string `json:"from,omitempty"`
	To    string `json:"to,omitempty"`
	Label string `json:"label,omitempty"`
	// Source is the English step's fingerprint (stepHash: its Markdown,
	// heading to the next step); a translation's step has its original's.
	Source string `json:"source,omitempty"`
	// Translated, on a translation's step, is the fingerprint its heading
	// names ({en=…}): the English step it was translated from. A step
	// whose Translated is not its Source is stale (Stale).
	Translated string `json:"translated,omitempty"`
	// NotRun are the references the step marks as not meant to run in
	// the recorded scenarios (notrun.go), as fact.Ref.String writes
	// them, sorted: a translation's step marks the ones its English step
	// does.
	NotRun []string `json:"notrun,omitempty"`
}

// Stale reports whether a translation's step was translated from another
// text than its English step's today. A step with no {en=…} is not
// stale: nothing says what it was translated from (check warns of it).
func (st StepInfo) Stale() bool { return st.Translated != "" && st.Translated != st.Source }

// stepHash is the fingerprint of an English step's Markdown: the first 8
// hex digits of the SHA-256 of its lines, each without trailing blanks,
// blank lines at its end left out. A translator writes it on the
// translated step's heading ({en=…}); when the English changes, the
// fingerprints differ and the translation is marked as older than its
// original.
func stepHash(lines []string) string {
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	h := sha256.New()
	for _, l := range lines {
		h.Write([]byte(strings.TrimRight(l, " \t")))
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))[:8]
}

// hashChars is what a step fingerprint is made of.
var hashChars = regexp.MustCompile(`^[0-9a-f]{8}$`)

// headingAttrs are the attributes a heading may carry.
type headingAttrs struct {
	id, from, to, label, en string
	has                     map[string]bool
}

var idChars = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]*$`)

// takeHeadingAttrs reads and removes n's attributes. Step headings
// (level 2, top level) accept from, to, label and id; other headings only id.
func (s *Source) takeHeadingAttrs(n *ast.Heading, step bool, errs *errorList) headingAttrs {
	a := headingAttrs{has: map[string]bool{}}
	attrs := n.Attributes()
	n.RemoveAttributes()
	if len(attrs) == 0 {
		if line, col, ok := s.unreadAttrs(n); ok {
			errs.add(s.File, line, col, "the heading's attribute block does not parse, so it would show as text: write {key=\"value\" …}, each value in double quotes, a quote inside one as \\\"")
		}
		return a
	}
	line, col := s.headingAttrPos(n)
	for _, at := range attrs {
		key := string(at.Name)
		var val string
		switch v := at.Value.(type) {
		case []byte:
			val = string(v)
		case float64:
			val = strconv.FormatFloat(v, 'f', -1, 64)
		default:
			errs.add(s.File, line, col, "heading attribute %s: want a string", key)
			continue
		}
		allowed := key == "id" || (step && (key == "from" || key == "to" || key == "label" || key == "en"))
		if !allowed {
			if step {
				errs.add(s.File, line, col, "unknown heading attribute %q (a step heading takes from, to, label and id; a translation's, label and en)", key)
			} else {
				errs.add(s.File, line, col, "unknown heading attribute %q (a sub-heading takes only an id)", key)
			}
			continue
		}
		a.has[key] = true
		switch key {
		case "id":
			if !idChars.MatchString(val) {
				errs.add(s.File, line, col, "heading id %q: want a letter then letters, digits, - or _", val)
				continue
			}
			a.id = val
		case "from":
			a.from = val
		case "to":
			a.to = val
		case "label":
			a.label = val
		case "en":
			if !hashChars.MatchString(val) {
				errs.add(s.File, line, col, "heading attribute en=%q: want the 8 hex digits of the English step's fingerprint (kubewalk check prints it)", val)
				continue
			}
			a.en = val
		}
	}
	return a
}

// unreadAttrs finds an attribute block goldmark could not read at the
// end of heading n, which it then leaves in the heading's text: a "{"
// followed by "#", "." or a key and "=", the line ending in "}". It
// returns the position of that "{". Other braces ("struct{}", "{k: v}")
// are text.
func (s *Source) unreadAttrs(n *ast.Heading) (line, col int, ok bool) {
	if n.Lines().Len() == 0 {
		return 0, 0, false
	}
	seg := n.Lines().At(n.Lines().Len() - 1)
	text := strings.TrimRight(string(seg.Value(s.src)), " \t")
	if !strings.HasSuffix(text, "}") {
		return 0, 0, false
	}
	for i := strings.IndexByte(text, '{'); i >= 0; i = nextBrace(text, i) {
		if attrStart.MatchString(text[i+1:]) {
			line, col = s.lineCol(seg.Start + i)
			return line, col, true
		}
	}
	return 0, 0, false
}

// nextBrace is the index of the first "{" of text after i, -1 for none.
func nextBrace(text string, i int) int {
	j := strings.IndexByte(text[i+1:], '{')
	if j < 0 {
		return -1
	}
	return i + 1 + j
}

// attrStart is how an attribute block's text after its "{" begins.
var attrStart = regexp.MustCompile(`^\s*([#.]|[A-Za-z_][A-Za-z0-9_:-]*\s*=)`)

// headingAttrPos finds the "{" of a heading's attribute block: goldmark
// has cut it from the heading's line segment, so it lies after the
// segment's end on the same line.
func (s *Source) headingAttrPos(n *ast.Heading) (line, col int) {
	if n.Lines().Len() == 0 {
		return s.blockLine(n), 0
	}
	seg := n.Lines().At(n.Lines().Len() - 1)
	end := seg.Stop
	for end < len(s.src) && s.src[end] != '{' && s.src[end] != '\n' {
		end++
	}
	return s.lineCol(end)
}

// plainText is n's text without markup, for titles and slugs.
func plainText(n ast.Node, source []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := c.(type) {
		case *ast.Text:
			b.Write(t.Segment.Value(source))
			if t.SoftLineBreak() || t.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(t.Value)
		case *ast.AutoLink:
			b.Write(t.Label(source))
		}
		return ast.WalkContinue, nil
	})
	return strings.TrimSpace(b.String())
}

// slug makes an anchor-safe slug of a title: lower-case letters and
// digits, other runs collapsed into "-", at most 48 bytes, cut at a "-".
// Letters outside ASCII are kept (they are valid in ids and URLs) but
// translations never need them: a translated step takes the English id.
func slug(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(title) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			continue
		}
		dash = true
	}
	out := b.String()
	if len(out) > 48 {
		out = out[:48]
		if i := strings.LastIndexByte(out, '-'); i > 16 {
			out = out[:i]
		}
		out = strings.ToValidUTF8(out, "")
	}
	return out
}

// stepID is the default anchor of the n-th step (1-based).
func stepID(n int, title string) string {
	if s := slug(title); s != "" {
		return fmt.Sprintf("step-%d-%s", n, s)
	}
	return fmt.Sprintf("step-%d", n)
}
