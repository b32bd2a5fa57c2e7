package walkthrough

import (
	"bytes"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// Source is a walkthrough file parsed for syntax only: front matter, steps
// and references, nothing resolved.
type Source struct {
	// File is the name diagnostics use.
	File string `json:"file"`
	// ID and Lang come from the file name: <id>.md is English ("en"),
	// <id>.<lang>.md a translation.
	ID   string `json:"id"`
	Lang string `json:"lang"`
	// Meta is the front matter; a translation's is completed from its
	// original (order, topics, and summary and participants when not
	// translated), so src.Title, src.Topics … read the same either way.
	Meta  `json:"meta"`
	Steps []StepInfo `json:"steps"`
	// Refs are the references written in this file, in source order
	// (a translation's use: blocks and reference definitions taken from
	// the English file are the English file's).
	Refs []RefUse `json:"refs"`

	src        []byte
	lineStarts []int
	doc        ast.Node
	pc         parser.Context
	base       *Source // the English original of a translation
	intro      []block
	steps      []*stepSrc
	names      map[string]*excerptSpec
	ids        map[string]int // anchors in use → line
	walkLinks  []walkLink     // links to other walkthroughs (walklinks.go)
}

// RefUse is one reference as written, unresolved.
type RefUse struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
	// Text is the reference as written: a link destination or an excerpt's
	// ref: value.
	Text string   `json:"text"`
	Ref  fact.Ref `json:"ref"`
	// NotRun is the reason written in the reference's not-run mark, ""
	// for none (Ref.NotRun).
	NotRun string `json:"notrun,omitempty"`
}

// block is a top-level piece of a step or the intro.
type block struct {
	node    ast.Node // rendered as HTML
	excerpt *excerptSpec
	facts   *factsSpec
}

type stepSrc struct {
	StepInfo
	heading *ast.Heading
	blocks  []block
}

// Parse parses one walkthrough file for syntax: front matter, steps,
// heading attributes, references and blocks. Nothing is resolved. file
// names the file in errors and gives the ID and language
// ("deployment.ko.md"). The error, when not nil, joins one *Error per
// problem; the Source is returned either way, as far as it could be read.
//
// A translation parsed alone cannot see its English original's reference
// definitions and named excerpts, so those uses are reported as errors
// here; Load, Check and Refs parse translations against their original.
func Parse(file string, src []byte) (*Source, error) {
	s, errs := parse(file, src, nil)
	return s, errs.err()
}

// normalizeNewlines turns CRLF and lone CR line endings into LF before
// anything counts lines: YAML (front matter) and CommonMark both end a line
// at a lone CR, so without this the front matter's line numbers and ours
// disagree on files with old Mac line endings (a fuzz crasher).
func normalizeNewlines(src []byte) []byte {
	if !bytes.ContainsRune(src, '\r') {
		return src
	}
	return bytes.ReplaceAll(bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n")), []byte("\r"), []byte("\n"))
}

var fileName = regexp.MustCompile(`^([a-z0-9][a-z0-9_-]*)(?:\.([a-z]{2,3}(?:-[A-Za-z0-9]+)?))?\.md$`)

// splitName splits "deployment.ko.md" into "deployment" and "ko".
func splitName(name string) (id, lang string, ok bool) {
	m := fileName.FindStringSubmatch(name)
	if m == nil {
		return strings.TrimSuffix(name, ".md"), "en", false
	}
	if m[2] == "" {
		return m[1], "en", true
	}
	return m[1], m[2], true
}

func parse(file string, src []byte, base *Source) (*Source, errorList) {
	var errs errorList
	// Editors on Windows start UTF-8 files with a byte order mark; it is
	// not text, and before the front matter's --- it hid the front matter.
	src = normalizeNewlines(bytes.TrimPrefix(src, []byte("\ufeff")))
	s := &Source{File: file, src: src, base: base, names: map[string]*excerptSpec{}, ids: map[string]int{}}
	s.ID, s.Lang, _ = splitName(path.Base(file))
	s.lineStarts = append(s.lineStarts, 0)
	for i, c := range src {
		if c == '\n' {
			s.lineStarts = append(s.lineStarts, i+1)
		}
	}
	s.pc = parser.NewContext()
	if e := checkLimits(file, src); e != nil {
		// goldmark is not given it: an empty document, this one error.
		s.doc = ast.NewDocument()
		return s, errorList{e}
	}
	if base != nil {
		// Link reference definitions are shared: a translation writes
		// [text][label] and gets the English file's [label]: go:… definition.
		for _, r := range base.pc.References() {
			s.pc.AddReference(r)
		}
	}
	s.doc = md.Parser().Parse(text.NewReader(src), parser.WithContext(s.pc))
	s.Meta = decodeMeta(s.pc, file, &errs)
	if base != nil {
		s.inheritMeta(&errs)
	}
	s.splitSteps(s.readHeadings(&errs), &errs)
	if base == nil {
		s.hashSteps()
	}
	if len(s.steps) == 0 {
		errs.add(file, 1, 1, "no steps: a walkthrough is a sequence of ## headings")
	}
	if base != nil && len(s.steps) != len(base.steps) {
		line := 1
		if len(s.steps) > len(base.steps) {
			line = s.steps[len(base.steps)].Line
		}
		errs.add(file, line, 1, "%d steps, but %s has %d: a translation has the same steps in the same order", len(s.steps), base.File, len(base.steps))
	}

	s.linkExcerpts(&errs)
	s.collectRefs(&errs)
	s.markErrors(&errs)
	for _, b := range s.allBlocks() {
		if b.node != nil {
			s.collectWalkLinks(b.node)
		}
	}
	for _, st := range s.steps {
		s.collectWalkLinks(st.heading)
	}
	s.stepMarks()
	for _, st := range s.steps {
		s.Steps = append(s.Steps, st.StepInfo)
	}
	return s, errs
}

// inheritMeta checks a translation's front matter against its English
// original's and completes it from there: order and topics always,
// summary and participants when not translated.
func (s *Source) inheritMeta(errs *errorList) {
	base := s.base
	for _, k := range []string{"order", "topics"} {
		if s.Meta.has(k) {
			errs.add(s.File, s.Meta.lines[k], 1, "%s: is set in the English file %s only", k, base.File)
		}
	}
	if s.Meta.has("participants") && len(s.Meta.Participants) != len(base.Meta.Participants) {
		errs.add(s.File, s.Meta.lines["participants"], 1, "participants: %d names, but %s has %d; a translation names the same participants in the same order", len(s.Meta.Participants), base.File, len(base.Meta.Participants))
	}
	s.Meta.Order, s.Meta.Topics = base.Meta.Order, base.Meta.Topics
	if s.Meta.Summary == "" {
		s.Meta.Summary = base.Meta.Summary
	}
	if len(s.Meta.Participants) != len(base.Meta.Participants) {
		s.Meta.Participants = base.Meta.Participants
	}
}

// readHeadings reads and strips the attributes of headings anywhere,
// keeping a valid id on sub-headings, and returns those of the step
// headings (level 2 at the top) for splitSteps. It also reports excerpt
// and facts blocks nested in a list or quote.
func (s *Source) readHeadings(errs *errorList) map[*ast.Heading]headingAttrs {
	stepAttrs := map[*ast.Heading]headingAttrs{}
	var nested []*ast.FencedCodeBlock
	_ = ast.Walk(s.doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			// A level-2 heading inside a list or quote is not a step: it
			// takes only an id.
			step := n.Parent() == s.doc && n.Level == 2
			a := s.takeHeadingAttrs(n, step, errs)
			if step {
				stepAttrs[n] = a
			} else if a.id != "" {
				s.claimID(a.id, s.blockLine(n), errs)
				n.SetAttribute([]byte("id"), []byte(a.id))
			}
		case *ast.FencedCodeBlock:
			if n.Parent() != s.doc {
				nested = append(nested, n)
			}
		}
		return ast.WalkContinue, nil
	})
	for _, n := range nested {
		if info := blockInfo(n, s.src); info == "excerpt" || info == "facts" {
			errs.add(s.File, s.fenceLine(n), 1, "%s blocks must not be nested in a list or quote", info)
		}
	}
	return stepAttrs
}

// splitSteps splits the document at level-2 headings into the intro and
// the steps, each a run of blocks: Markdown nodes, excerpts and facts.
func (s *Source) splitSteps(stepAttrs map[*ast.Heading]headingAttrs, errs *errorList) {
	cur := &s.intro
	for c := s.doc.FirstChild(); c != nil; c = c.NextSibling() {
		switch n := c.(type) {
		case *ast.Heading:
			switch n.Level {
			case 1:
				errs.add(s.File, s.blockLine(n), 1, "level-1 heading: the title comes from the front matter; steps are ## headings")
				continue
			case 2:
				st := &stepSrc{heading: n}
				st.Title = plainText(n, s.src)
				st.Line = s.blockLine(n)
				s.stepHeading(st, stepAttrs[n], len(s.steps)+1, errs)
				s.steps = append(s.steps, st)
				cur = &st.blocks
				continue
			}
		case *ast.FencedCodeBlock:
			switch blockInfo(n, s.src) {
			case "excerpt":
				if e := s.parseExcerpt(n, errs); e != nil {
					*cur = append(*cur, block{excerpt: e})
				}
				continue
			case "facts":
				if f := s.parseFacts(n, errs); f != nil {
					*cur = append(*cur, block{facts: f})
				}
				continue
			}
		}
		*cur = append(*cur, block{node: c})
	}
}

// hashSteps sets each step's Source: the fingerprint of its lines, from
// its heading to the line before the next step's (or the file's end).
func (s *Source) hashSteps() {
	lines := strings.Split(string(s.src), "\n")
	for i, st := range s.steps {
		end := len(lines)
		if i+1 < len(s.steps) {
			end = s.steps[i+1].Line - 1
		}
		if st.Line >= 1 && st.Line <= end {
			st.Source = stepHash(lines[st.Line-1 : end])
		}
	}
}

// stepHeading sets a step's id and message from its attributes.
func (s *Source) stepHeading(st *stepSrc, a headingAttrs, n int, errs *errorList) {
	line, col := s.headingAttrPos(st.heading)
	if b := s.base; b != nil {
		for _, k := range []string{"from", "to", "id"} {
			if a.has[k] {
				errs.add(s.File, line, col, "heading attribute %s is set in the English file %s only", k, b.File)
			}
		}
		st.Translated = a.en
		if n <= len(b.steps) {
			en := b.steps[n-1]
			st.ID, st.From, st.To, st.Label, st.Source = en.ID, en.From, en.To, en.Label, en.Source
			if a.has["label"] {
				st.Label = a.label
			}
		}
		return
	}
	if a.has["en"] {
		errs.add(s.File, line, col, "heading attribute en= is for a translation's step: the English step it was translated from")
	}
	st.ID = a.id
	if st.ID == "" {
		st.ID = stepID(n, st.Title)
	}
	s.claimID(st.ID, st.Line, errs)
	st.From, st.To, st.Label = a.from, a.to, a.label
	switch {
	case (st.From == "") != (st.To == ""):
		errs.add(s.File, line, col, "a step's message needs both from= and to=")
	case st.From == "" && st.Label != "":
		errs.add(s.File, line, col, "label= needs from= and to=")
	case st.From != "":
		for _, p := range []string{st.From, st.To} {
			if !s.Meta.hasParticipant(p) {
				errs.add(s.File, line, col, "%q is not among the front matter's participants %q", p, s.Meta.Participants)
			}
		}
	}
}

// pageIDs are the ids the walkthrough page has of its own (the layout's
// main content and the box of diffs since the previous release): a step or
// heading with one of them would be a second element with that id, and its
// links would lead to the page's.
var pageIDs = []string{"main", "diffbox"}

func (s *Source) claimID(id string, line int, errs *errorList) {
	if slices.Contains(pageIDs, id) {
		errs.add(s.File, line, 1, "id %q is the page's own: choose another", id)
		return
	}
	if prev, dup := s.ids[id]; dup {
		errs.add(s.File, line, 1, "id %q already used on line %d", id, prev)
		return
	}
	s.ids[id] = line
}

// linkExcerpts records named excerpts and points use: blocks at them: a
// translation's at its English original's names, so the reference is
// written once.
func (s *Source) linkExcerpts(errs *errorList) {
	for _, e := range s.excerpts() {
		if e.name == "" {
			continue
		}
		if _, dup := s.names[e.name]; dup {
			n := e.kv["name"]
			errs.add(s.File, n.line, n.valCol, "excerpt name %q used twice", e.name)
			continue
		}
		s.names[e.name] = e
	}
	names := s.names
	if s.base != nil {
		names = s.base.names
	}
	for _, e := range s.excerpts() {
		if e.use == nil {
			continue
		}
		if t, ok := names[e.use.name]; ok {
			e.use = t
			continue
		}
		u := e.kv["use"]
		var known []string
		for n := range names {
			known = append(known, n)
		}
		sort.Strings(known)
		err := &Error{File: s.File, Line: u.line, Col: u.valCol, Msg: "use: no excerpt named " + quote(e.use.name)}
		err.Suggestions = nearest(e.use.name, known)
		*errs = append(*errs, err)
		e.use = nil
	}
}

func (s *Source) excerpts() []*excerptSpec {
	var out []*excerptSpec
	for _, bl := range s.allBlocks() {
		if bl.excerpt != nil {
			out = append(out, bl.excerpt)
		}
	}
	return out
}

func (s *Source) allBlocks() []block {
	out := slices.Clone(s.intro)
	for _, st := range s.steps {
		out = append(out, st.blocks...)
	}
	return out
}

// collectRefs lists the references written in the file and reports those
// that do not parse.
func (s *Source) collectRefs(errs *errorList) {
	visit := func(n ast.Node) {
		_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
			r, ok := c.(*refLink)
			if !ok || !entering {
				return ast.WalkContinue, nil
			}
			line, col := s.lineCol(refPos(r, s.src))
			if r.err != nil {
				if strings.HasPrefix(string(r.dest), "go:") {
					errs.add(s.File, line, col, "%v", r.err) // ParseRef's message quotes the reference
				} else {
					errs.add(s.File, line, col, "%s: %v", r.dest, r.err)
				}
				return ast.WalkContinue, nil
			}
			u := RefUse{File: s.File, Line: line, Col: col, Text: string(r.dest), Ref: r.ref}
			if m := r.mark; m != nil {
				if m.err != "" {
					ml, mc := s.lineCol(m.off)
					errs.add(s.File, ml, mc, "%s", m.err)
				}
				u.NotRun = m.reason
			}
			s.Refs = append(s.Refs, u)
			return ast.WalkContinue, nil
		})
	}
	blocks := func(bs []block) {
		for _, b := range bs {
			switch {
			case b.node != nil:
				visit(b.node)
			case b.excerpt != nil && b.excerpt.use == nil && b.excerpt.kv["ref"].present:
				s.Refs = append(s.Refs, s.excerptRefUse(b.excerpt))
			}
		}
	}
	blocks(s.intro)
	for _, st := range s.steps {
		visit(st.heading)
		blocks(st.blocks)
	}
}

// lineCol converts a byte offset to a 1-based line and byte column.
func (s *Source) lineCol(off int) (line, col int) {
	if off < 0 {
		return 0, 0
	}
	i := sort.Search(len(s.lineStarts), func(i int) bool { return s.lineStarts[i] > off }) - 1
	return i + 1, off - s.lineStarts[i] + 1
}

// blockLine is the first line of a block node.
func (s *Source) blockLine(n ast.Node) int {
	for ; n != nil; n = n.FirstChild() {
		if n.Type() == ast.TypeBlock && n.Lines().Len() > 0 {
			l, _ := s.lineCol(n.Lines().At(0).Start)
			return l
		}
		if t, ok := n.(*ast.Text); ok {
			l, _ := s.lineCol(t.Segment.Start)
			return l
		}
	}
	return 0
}

// fenceLine is the line of a fenced block's opening fence.
func (s *Source) fenceLine(n *ast.FencedCodeBlock) int {
	if n.Info != nil {
		l, _ := s.lineCol(n.Info.Segment.Start)
		return l
	}
	if n.Lines().Len() > 0 {
		l, _ := s.lineCol(n.Lines().At(0).Start)
		return l - 1
	}
	return 0
}

// blockInfo is a fenced block's language word.
func blockInfo(n *ast.FencedCodeBlock, src []byte) string {
	return string(n.Language(src))
}

func quote(s string) string { return `"` + s + `"` }
