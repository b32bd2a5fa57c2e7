// Package codetour turns resolved walkthroughs into CodeTour tours
// (https://github.com/microsoft/codetour), so a walkthrough plays in an
// editor over a checkout of the same release.
//
// One tour per walkthrough. Each walkthrough step becomes a tour step
// anchored at its first excerpt (the lines it shows, selected, the comment
// on its first highlighted line) or, without one, at its first reference;
// a step with no code is a content-only step. Each further excerpt of a
// step becomes a step of its own. Descriptions are the step's original
// Markdown when the walkthrough's source is given (Options.Markdown):
// symbol references become GitHub permalinks at the tag, excerpt blocks a
// link to the lines they show, facts blocks a list of the facts they
// embed. Without the source they are the step's text.
//
// Tours anchor steps by line, which is what CodeTour understands and why
// its tours break when code moves; kubewalk resolves by symbol at export
// time, and the tour's "ref" names the tag, so the lines are right for
// that release: export again for another.
//
//	t := codetour.FromDoc(doc, codetour.Options{Tag: "v1.36.3", Markdown: read, Permalink: tree.Permalink})
//	err := codetour.WriteFile(filepath.Join(out, codetour.FileName(doc)), t)
package codetour

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/disk/atomicfile"
	"github.com/kubewalk/kubewalk/walkthrough"
)

// SchemaURL is CodeTour's JSON schema.
const SchemaURL = "https://aka.ms/codetour-schema"

// Tour is a .tour file.
type Tour struct {
	Schema      string `json:"$schema"`
	Title       string `json:"title"`
	Description string `json:"description,omitempty"`
	// Ref is the git ref the tour was recorded at: the release tag.
	Ref   string `json:"ref,omitempty"`
	Steps []Step `json:"steps"`
}

// Step is one tour step. A step without File is a content-only step.
type Step struct {
	File      string     `json:"file,omitempty"`
	Line      int        `json:"line,omitempty"`
	Selection *Selection `json:"selection,omitempty"`
	Title     string     `json:"title,omitempty"`
	// Description is Markdown.
	Description string `json:"description"`
}

// Selection is a range of the file, 1-based lines and characters.
type Selection struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// Position is a 1-based line and character.
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// Options are what FromDoc needs beyond the Doc.
type Options struct {
	// Tag is the release; it becomes the tour's ref.
	Tag string
	// Markdown returns the walkthrough file doc.File as written; nil (or
	// an error) makes descriptions from the step's text instead.
	Markdown func(file string) ([]byte, error)
	// Permalink returns the GitHub URL of lines from..to of a file at the
	// tag; nil leaves references as written.
	Permalink func(path string, from, to int) string
	// LineLen returns the length in characters of a line of a tree file,
	// so a selection ends at the end of its last line; nil or a negative
	// result ends it at the start of the next line.
	LineLen func(path string, line int) int
}

// FileName is the tour file of a walkthrough: <id>.tour, <id>.<lang>.tour
// for a language other than English (as walkthrough files are named).
func FileName(d *walkthrough.Doc) string {
	if d.Lang == "" || d.Lang == "en" {
		return d.ID + ".tour"
	}
	return d.ID + "." + d.Lang + ".tour"
}

// FromDoc makes the tour of one walkthrough.
func FromDoc(d *walkthrough.Doc, opts Options) Tour {
	t := Tour{Schema: SchemaURL, Title: d.Title, Description: d.Summary, Ref: opts.Tag}
	var src []string
	if opts.Markdown != nil {
		if b, err := opts.Markdown(d.File); err == nil {
			src = strings.Split(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n")
		}
	}
	links := refLinks(d, opts)
	defs := refDefs(src, links)

	if src != nil && len(d.Steps) > 0 {
		if intro := introMarkdown(src, d.Steps[0].Line); intro != "" {
			t.Steps = append(t.Steps, Step{Title: d.Title, Description: rewrite(intro, links, defs, nil, opts)})
		}
	} else if intro := segmentsText(d.Intro); intro != "" {
		t.Steps = append(t.Steps, Step{Title: d.Title, Description: intro})
	}
	for i, s := range d.Steps {
		var excerpts []*walkthrough.Excerpt
		var facts []*walkthrough.FactsBlock
		for _, seg := range s.Segments {
			if seg.Excerpt != nil {
				excerpts = append(excerpts, seg.Excerpt)
			}
			if seg.Facts != nil {
				facts = append(facts, seg.Facts)
			}
		}
		var desc string
		if src != nil {
			end := len(src) + 1
			if i+1 < len(d.Steps) {
				end = d.Steps[i+1].Line
			}
			desc = rewrite(stepMarkdown(src, s.Line, end), links, defs, &blocks{excerpts: excerpts, facts: facts}, opts)
		} else {
			desc = segmentsText(s.Segments)
		}
		st := Step{Title: s.Title, Description: desc}
		switch {
		case len(excerpts) > 0:
			anchorExcerpt(&st, excerpts[0], opts)
		case len(s.Refs) > 0:
			r := s.Refs[0].Resolved
			st.File = r.Symbol.Decl.Path
			st.Line = r.Symbol.Decl.StartLine
			if len(r.Matched) > 0 {
				st.Line = r.Matched[0]
			}
		}
		t.Steps = append(t.Steps, st)
		for k, e := range excerpts[min(1, len(excerpts)):] {
			more := Step{Title: fmt.Sprintf("%s (%d)", s.Title, k+2), Description: excerptNote(e, opts)}
			anchorExcerpt(&more, e, opts)
			t.Steps = append(t.Steps, more)
		}
	}
	if t.Steps == nil {
		t.Steps = []Step{}
	}
	return t
}

func anchorExcerpt(st *Step, e *walkthrough.Excerpt, opts Options) {
	// The selection is the first run of lines the site shows (an excerpt
	// with context elides the rest); the comment sits on its first
	// highlighted line.
	from, to := shown(e)
	st.File = e.Resolved.Symbol.Decl.Path
	st.Line = from
	if len(e.Highlight) > 0 {
		st.Line = e.Highlight[0]
	}
	end := Position{Line: to + 1, Character: 1}
	if opts.LineLen != nil {
		if n := opts.LineLen(st.File, to); n >= 0 {
			end = Position{Line: to, Character: n + 1}
		}
	}
	st.Selection = &Selection{Start: Position{Line: from, Character: 1}, End: end}
}

// excerptNote is the description of an excerpt's own step.
func excerptNote(e *walkthrough.Excerpt, opts Options) string {
	var b strings.Builder
	if e.Caption != "" {
		b.WriteString(e.Caption + "\n\n")
	}
	b.WriteString(excerptLink(e, opts))
	return b.String()
}

// shown returns the first run of lines the excerpt shows.
func shown(e *walkthrough.Excerpt) (from, to int) {
	if r := e.Ranges(); len(r) > 0 {
		return r[0][0], r[0][1]
	}
	return e.From, e.To
}

func excerptLink(e *walkthrough.Excerpt, opts Options) string {
	from, to := e.From, e.To
	if r := e.Ranges(); len(r) > 0 {
		from, to = r[0][0], r[len(r)-1][1]
	}
	sym := "`" + fact.ShortSymbol(e.Resolved.Symbol.Name) + "`"
	where := fmt.Sprintf("%s lines %d–%d", e.Resolved.Symbol.Decl.Path, from, to)
	if opts.Permalink == nil {
		return sym + ", " + where
	}
	return fmt.Sprintf("%s, [%s](%s)", sym, where, opts.Permalink(e.Resolved.Symbol.Decl.Path, from, to))
}

// refLinks maps each reference as written (a link destination) to the
// permalink of what it resolved to.
func refLinks(d *walkthrough.Doc, opts Options) map[string]string {
	links := map[string]string{}
	if opts.Permalink == nil {
		return links
	}
	for _, s := range d.Steps {
		for _, r := range s.Refs {
			if r.Text == "" || r.Resolved.Symbol.Decl.Path == "" {
				continue
			}
			from, to := r.Resolved.Symbol.Decl.StartLine, r.Resolved.Symbol.Decl.EndLine
			if m := r.Resolved.Matched; len(m) > 0 {
				from, to = m[0], m[len(m)-1]
			}
			links[r.Text] = opts.Permalink(r.Resolved.Symbol.Decl.Path, from, to)
		}
	}
	return links
}

// Reference definitions: "[label]: destination".
var refDefRe = regexp.MustCompile(`^ {0,3}\[([^\]]+)\]:\s*(<[^>]*>|\S+)`)

// refDefs collects the document's reference definitions, as lines to
// append, by lower-cased label (labels match case-insensitively), with
// destinations rewritten to permalinks.
func refDefs(src []string, links map[string]string) map[string]string {
	defs := map[string]string{}
	for _, l := range src {
		if m := refDefRe.FindStringSubmatch(l); m != nil {
			dest := strings.Trim(m[2], "<>")
			if p, ok := links[dest]; ok {
				dest = p
			} else if strings.HasPrefix(dest, "go:") {
				continue
			}
			defs[strings.ToLower(m[1])] = "[" + m[1] + "]: " + dest
		}
	}
	return defs
}

// introMarkdown is what comes between the front matter and the first step.
func introMarkdown(src []string, firstStep int) string {
	start := 0
	if len(src) > 0 && strings.TrimSpace(src[0]) == "---" {
		for i := 1; i < len(src); i++ {
			if strings.TrimSpace(src[i]) == "---" {
				start = i + 1
				break
			}
		}
	}
	end := min(firstStep-1, len(src))
	if start >= end {
		return ""
	}
	return strings.TrimSpace(strings.Join(src[start:end], "\n"))
}

// stepMarkdown is lines (heading line, next step's heading line) of src,
// 1-based, without the heading.
func stepMarkdown(src []string, heading, next int) string {
	from, to := heading, min(next-1, len(src))
	if from >= to {
		return ""
	}
	return strings.TrimSpace(strings.Join(src[from:to], "\n"))
}

// blocks are a step's excerpts and facts blocks in order, matched to the
// fenced blocks of its Markdown in order.
type blocks struct {
	excerpts []*walkthrough.Excerpt
	facts    []*walkthrough.FactsBlock
}

var fenceRe = regexp.MustCompile("^ {0,3}(`{3,}|~{3,})\\s*([A-Za-z0-9_-]*)")

// rewrite turns a step's Markdown into a tour description: reference
// definitions dropped (and the ones it uses appended, with permalinks),
// inline reference destinations replaced by permalinks, excerpt and facts
// blocks replaced by links to what they show.
func rewrite(md string, links, defs map[string]string, bl *blocks, opts Options) string {
	lines := strings.Split(md, "\n")
	var out []string
	ei, fi := 0, 0
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if refDefRe.MatchString(l) {
			continue
		}
		if m := fenceRe.FindStringSubmatch(l); m != nil {
			fence, info := m[1], m[2]
			j := i + 1
			for j < len(lines) && !strings.HasPrefix(strings.TrimLeft(lines[j], " "), fence) {
				j++
			}
			switch {
			case info == "excerpt" && bl != nil:
				if ei < len(bl.excerpts) {
					e := bl.excerpts[ei]
					note := "> " + excerptLink(e, opts)
					if e.Caption != "" {
						note = "> " + e.Caption + "\n>\n" + note
					}
					out = append(out, note)
				}
				ei++
				i = j
				continue
			case info == "facts" && bl != nil:
				if fi < len(bl.facts) {
					out = append(out, factsList(bl.facts[fi], opts)...)
				}
				fi++
				i = j
				continue
			}
			out = append(out, lines[i:min(j+1, len(lines))]...)
			i = j
			continue
		}
		out = append(out, l)
	}
	text := strings.TrimSpace(strings.Join(out, "\n"))
	for _, dest := range longestFirst(links) {
		p := links[dest]
		text = strings.ReplaceAll(text, "]("+dest+")", "]("+p+")")
		text = strings.ReplaceAll(text, "](<"+dest+">)", "]("+p+")")
	}
	// Reference-style links used here need their definitions.
	var used []string
	for _, label := range slices.Sorted(maps.Keys(defs)) {
		if strings.Contains(strings.ToLower(text), "["+label+"]") {
			used = append(used, defs[label])
		}
	}
	if len(used) > 0 {
		text += "\n\n" + strings.Join(used, "\n")
	}
	return text
}

func factsList(f *walkthrough.FactsBlock, opts Options) []string {
	item := func(what string, at fact.Location) string {
		loc := fmt.Sprintf("%s:%d", at.Path, at.StartLine)
		if opts.Permalink != nil {
			loc = "[" + loc + "](" + opts.Permalink(at.Path, at.StartLine, at.EndLine) + ")"
		}
		return "- " + what + " — " + loc
	}
	var out []string
	for _, e := range f.Events {
		out = append(out, item(fmt.Sprintf("event `%s` (%s) in `%s`", first(e.Reason, e.ReasonExpr), e.Type, fact.ShortSymbol(e.Caller.Symbol)), e.At))
	}
	for _, w := range f.Writes {
		out = append(out, item(fmt.Sprintf("`%s` %s in `%s`", w.Via, w.Resource.Resource, fact.ShortSymbol(w.Caller.Symbol)), w.At))
	}
	for _, h := range f.Handlers {
		out = append(out, item(fmt.Sprintf("`%s` on %s in `%s`", h.Method, h.InformerExpr, fact.ShortSymbol(h.Caller.Symbol)), h.At))
	}
	if len(out) == 0 {
		out = []string{"- (no facts for `" + f.Query + "`)"}
	}
	return out
}

func first(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// longestFirst returns the keys longest first (then in order), so a
// destination that is a prefix of another is not replaced inside it.
func longestFirst(m map[string]string) []string {
	keys := slices.Sorted(maps.Keys(m))
	sort.SliceStable(keys, func(i, j int) bool { return len(keys[i]) > len(keys[j]) })
	return keys
}

// segmentsText is the plain text of rendered segments, for descriptions
// when the Markdown is not available.
func segmentsText(segs []walkthrough.Segment) string {
	var parts []string
	for _, s := range segs {
		switch {
		case s.Markdown != nil:
			parts = append(parts, s.Markdown.Text())
		case s.Excerpt != nil && s.Excerpt.Caption != "":
			parts = append(parts, s.Excerpt.Caption)
		}
	}
	return strings.TrimSpace(strings.Join(parts, "\n\n"))
}

// Marshal encodes a tour deterministically: fields in declaration order,
// two-space indent, no HTML escaping, a final newline.
func Marshal(t Tour) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(t); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// WriteFile writes a tour atomically: to a temporary file beside path,
// renamed over it, so an editor never reads half a tour.
func WriteFile(path string, t Tour) error {
	b, err := Marshal(t)
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(path, b, 0o644)
}
