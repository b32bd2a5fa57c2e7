package walkthrough

// Excerpt blocks: a fenced block with the info string "excerpt" embeds
// lines of a declaration, chosen by name:
//
//	```excerpt
//	name: new-rs
//	ref: k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.getNewReplicaSet
//	lines: ReplicaSets\(.*\)\.Create
//	context: 4
//	caption: The new ReplicaSet is created here.
//	```
//
// The block is a segment of its step (Segment.Excerpt); the site renders
// the code, which it holds with cross-references, from the lines resolved
// here.

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// wholeDeclMax is the longest declaration an excerpt shows whole by
// default. Forty lines fit beside the prose on a laptop screen; longer
// declarations default to three lines of context around the highlighted
// lines, as diff does.
const (
	wholeDeclMax   = 40
	defaultContext = 3
)

// excerptSpec is an excerpt block as written.
type excerptSpec struct {
	line int // the opening fence
	kv   map[string]kvLine
	name string
	ref  fact.Ref
	// context is -2 when not given (decided from the declaration's size).
	context int
	caption string
	// notrun is the reason the code is not meant to run in the recorded
	// scenarios, "" if not so marked (notrun.go).
	notrun string
	// use is the named excerpt this block shows, from the English file;
	// nil for a block with its own ref.
	use *excerptSpec
}

var excerptKeys = []string{"ref", "lines", "context", "caption", "from", "to", "name", "use", notRunKey}

func (s *Source) parseExcerpt(n *ast.FencedCodeBlock, errs *errorList) *excerptSpec {
	e := &excerptSpec{line: s.fenceLine(n), context: -2}
	e.kv = s.parseKV(n, excerptKeys, errs)
	kv := e.kv
	if c, ok := kv["caption"]; ok {
		e.caption = c.val
	}
	if n, ok := kv[notRunKey]; ok {
		if n.val == "" {
			errs.add(s.File, n.line, n.keyCol, "notrun: the reason is empty: write why the code is not meant to run in the recorded scenarios")
		}
		e.notrun = n.val
	}
	if u, ok := kv["use"]; ok {
		for _, k := range []string{"ref", "lines", "context", "from", "to", "name"} {
			if o, ok := kv[k]; ok {
				errs.add(s.File, o.line, o.keyCol, "%s: not allowed with use: (the named excerpt decides it)", k)
			}
		}
		e.use = &excerptSpec{name: u.val} // resolved by Parse once all names are known
		return e
	}
	r, ok := kv["ref"]
	if !ok {
		errs.add(s.File, e.line, 1, "excerpt block has no ref:")
		return nil
	}
	ref, err := fact.ParseRef(r.val)
	if err != nil {
		errs.add(s.File, r.line, r.valCol, "ref: %v", err)
		return nil
	}
	e.ref = ref
	if l, ok := kv["lines"]; ok {
		if ref.Lines != "" {
			errs.add(s.File, l.line, l.keyCol, "lines: given twice (ref: already ends in /regexp/)")
		}
		e.ref.Lines = l.val
	}
	for _, k := range []string{"lines", "from", "to"} {
		if l, ok := kv[k]; ok {
			if l.val == "" {
				errs.add(s.File, l.line, l.keyCol, "%s: empty regexp", k)
			} else if _, err := regexp.Compile(l.val); err != nil {
				errs.add(s.File, l.line, l.valCol, "%s: bad regexp: %v", k, err)
				return nil
			}
		}
	}
	if c, ok := kv["context"]; ok {
		if c.val == "all" {
			e.context = -1
		} else if v, err := strconv.Atoi(c.val); err != nil || v < 0 {
			errs.add(s.File, c.line, c.valCol, "context: want a number of lines >= 0 or \"all\", not %q", c.val)
		} else {
			e.context = v
		}
	}
	if nm, ok := kv["name"]; ok {
		if !idChars.MatchString(nm.val) {
			errs.add(s.File, nm.line, nm.valCol, "name: %q: want a letter then letters, digits, - or _", nm.val)
		} else {
			e.name = nm.val
		}
	}
	return e
}

// refUse is the reference an excerpt writes, for Refs.
func (s *Source) excerptRefUse(e *excerptSpec) RefUse {
	r := e.kv["ref"]
	return RefUse{File: s.File, Line: r.line, Col: r.valCol, Text: r.val, Ref: e.ref, NotRun: e.notrun}
}

// resolveExcerpt resolves an excerpt. file is the file the spec was written
// in (the English one for a use: block), for error positions; caption and
// notrun are the block's own (a use: block's, else the spec's).
func (b *builder) resolveExcerpt(file string, e *excerptSpec, caption, notrun string) *Excerpt {
	r := e.kv["ref"]
	res, ok := b.resolve(file, r.line, r.valCol, r.val, e.ref)
	if !ok {
		return nil
	}
	sym := res.Symbol
	lines := e.kv["lines"]
	if !lines.present {
		lines = r
	}
	if e.ref.Lines != "" && len(res.Matched) == 0 {
		b.errs.add(file, lines.line, lines.valCol, "lines /%s/ matches no line of %s (%s)", e.ref.Lines, sym.Name, span(sym.Decl))
		return nil
	}
	from, to := sym.Decl.StartLine, sym.Decl.EndLine
	one := fact.Ref{Alternates: []string{e.ref.Alternates[res.Alternate]}}
	if f, ok := e.kv["from"]; ok {
		one.Lines = f.val
		m, err := b.lookup(one)
		if err != nil {
			b.report(file, f.line, f.valCol, r.val, err)
			return nil
		}
		if len(m.Matched) == 0 {
			b.errs.add(file, f.line, f.valCol, "from /%s/ matches no line of %s (%s)", f.val, sym.Name, span(sym.Decl))
			return nil
		}
		from = m.Matched[0]
	}
	if t, ok := e.kv["to"]; ok {
		one.Lines = t.val
		m, err := b.lookup(one)
		if err != nil {
			b.report(file, t.line, t.valCol, r.val, err)
			return nil
		}
		to = -1
		for _, l := range m.Matched {
			if l >= from {
				to = l
				break
			}
		}
		if to < 0 {
			b.errs.add(file, t.line, t.valCol, "to /%s/ matches no line of %s at or after line %d", t.val, sym.Name, from)
			return nil
		}
	}
	var hl []int
	for _, l := range res.Matched {
		if l >= from && l <= to {
			hl = append(hl, l)
		}
	}
	if e.ref.Lines != "" && len(hl) == 0 {
		b.errs.add(file, lines.line, lines.valCol, "lines /%s/ matches no line between from and to (%d-%d)", e.ref.Lines, from, to)
		return nil
	}
	ctx := e.context
	if ctx == -2 {
		ctx = defaultContext
		if len(hl) == 0 || to-from+1 <= wholeDeclMax {
			ctx = -1
		}
	}
	return &Excerpt{
		Ref:       Ref{File: file, Text: r.val, Line: r.line, Ref: e.ref, Resolved: res, NotRun: notrun},
		Name:      e.name,
		From:      from,
		To:        to,
		Highlight: hl,
		Context:   ctx,
		Caption:   caption,
	}
}

func span(l fact.Location) string {
	return fmt.Sprintf("%s:%d-%d", l.Path, l.StartLine, l.EndLine)
}

// kvLine is one "key: value" line of an excerpt or facts block.
type kvLine struct {
	key, val             string
	line, keyCol, valCol int
	present              bool
}

// parseKV reads a block's "key: value" lines. Blank lines and lines
// starting with "#" are skipped; a key outside keys, a key given twice or a
// line without ":" is an error at its line.
func (s *Source) parseKV(n *ast.FencedCodeBlock, keys []string, errs *errorList) map[string]kvLine {
	out := map[string]kvLine{}
	for i := 0; i < n.Lines().Len(); i++ {
		seg := n.Lines().At(i)
		raw := string(seg.Value(s.src))
		line, col0 := s.lineCol(seg.Start)
		body := strings.TrimRight(raw, "\r\n")
		trimmed := strings.TrimLeft(body, " \t")
		indent := len(body) - len(trimmed)
		if strings.TrimSpace(trimmed) == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		k, v, ok := strings.Cut(trimmed, ":")
		keyCol := col0 + indent
		if !ok {
			errs.add(s.File, line, keyCol, "want key: value, got %q", trimmed)
			continue
		}
		k = strings.TrimSpace(k)
		valOff := len(k) + 1
		for valOff < len(trimmed) && (trimmed[valOff] == ' ' || trimmed[valOff] == '\t') {
			valOff++
		}
		kl := kvLine{key: k, val: strings.TrimSpace(v), line: line, keyCol: keyCol, valCol: keyCol + valOff, present: true}
		if !contains(keys, k) {
			errs.add(s.File, line, keyCol, "unknown key %q (want %s)", k, strings.Join(keys, ", "))
			continue
		}
		if _, dup := out[k]; dup {
			errs.add(s.File, line, keyCol, "%s: given twice", k)
			continue
		}
		out[k] = kl
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
