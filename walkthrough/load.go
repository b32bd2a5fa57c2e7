package walkthrough

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/agnivade/levenshtein"
	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/yuin/goldmark/ast"
)

// Options are what Load and Check need beyond the Markdown.
type Options struct {
	// Resolver resolves references and answers facts queries at one tag.
	Resolver Resolver
	// Also are walkthroughs of other directories in the same site that
	// links may name (see Targets): a user's walkthroughs link to the
	// built-in ones. A walkthrough of the directory itself wins over one
	// of the same ID here.
	Also LinkTargets
}

// Load parses and resolves every walkthrough in dir for lang:
// <id>.<lang>.md where it exists, else <id>.md — a walkthrough not yet
// translated is shown in English rather than missing (Doc.Lang says which
// language a Doc is in, so the site can say so). Docs are sorted by
// Compare: Order, then ID.
//
// A walkthrough with problems is left out and its problems reported: the
// error joins one *Error per problem, and the docs returned are the ones
// without.
func Load(fsys fs.FS, dir string, lang string, opts Options) ([]*Doc, error) {
	return load(fsys, dir, opts, func(set *fileSet) []string {
		return []string{fallback(lang, set.languages())}
	})
}

// LoadAll is Load for every language at once: of each walkthrough, the
// English original and every translation, each file parsed once, sorted
// by Compare and then language. A site in several languages picks each
// reader's among them with Select.
func LoadAll(fsys fs.FS, dir string, opts Options) ([]*Doc, error) {
	return load(fsys, dir, opts, func(set *fileSet) []string {
		return append([]string{"en"}, slices.Sorted(maps.Keys(set.langs))...)
	})
}

// load builds, of each walkthrough in dir, the languages langs picks
// among its files, parsing its English original once.
func load(fsys fs.FS, dir string, opts Options, langs func(*fileSet) []string) ([]*Doc, error) {
	sets, errs := scan(fsys, dir)
	ens, clean, errs := parseOriginals(fsys, sets, errs)
	targets := opts.targets(ens)
	var docs []*Doc
	for i, set := range sets {
		en := ens[i]
		if en == nil || !clean[i] {
			continue
		}
		for _, l := range langs(set) {
			src := en
			if l != "en" {
				tr, terrs := parseFile(fsys, set.langs[l], en)
				errs = appendErrs(errs, terrs)
				if tr == nil || len(terrs) > 0 {
					continue
				}
				src = tr
			}
			doc, berrs := build(src, &opts, targets)
			errs = appendErrs(errs, berrs)
			if len(berrs) == 0 {
				docs = append(docs, doc)
			}
		}
	}
	slices.SortFunc(docs, func(a, b *Doc) int { return cmp.Or(Compare(a, b), cmp.Compare(a.Lang, b.Lang)) })
	sortErrors(errs)
	return docs, errors.Join(errs...)
}

// Check parses and resolves every walkthrough in dir in every
// language and returns every problem found (not only the first of each
// file), sorted by file, line and column. A problem in an English file's
// named excerpt used by a translation is reported once.
func Check(fsys fs.FS, dir string, opts Options) []error {
	sets, errs := scan(fsys, dir)
	ens, _, errs := parseOriginals(fsys, sets, errs)
	targets := opts.targets(ens)
	for i, set := range sets {
		en := ens[i]
		if en == nil {
			continue
		}
		_, berrs := build(en, &opts, targets)
		errs = appendErrs(errs, berrs)
		for _, lang := range slices.Sorted(maps.Keys(set.langs)) {
			tr, terrs := parseFile(fsys, set.langs[lang], en)
			errs = appendErrs(errs, terrs)
			if tr == nil {
				continue
			}
			_, berrs := build(tr, &opts, targets)
			errs = appendErrs(errs, berrs)
		}
	}
	seen := map[string]bool{}
	out := errs[:0]
	for _, e := range errs {
		if !seen[e.Error()] {
			seen[e.Error()] = true
			out = append(out, e)
		}
	}
	sortErrors(out)
	return out
}

// Refs returns every reference written in the walkthroughs in dir, in
// every language, with its position, without resolving any: cmd/kubewalk
// adds their packages to the analyzer's roots. Syntax errors are returned
// too (joined), but do not stop the listing.
func Refs(fsys fs.FS, dir string) ([]RefUse, error) {
	srcs, err := ParseDir(fsys, dir)
	var refs []RefUse
	for _, s := range srcs {
		refs = append(refs, s.Refs...)
	}
	return refs, err
}

// ParseDir parses every walkthrough file in dir, in every language, for
// syntax (translations against their English originals), sorted by ID,
// English first, then by language. Syntax errors are returned joined, with
// every Source that could be read.
func ParseDir(fsys fs.FS, dir string) ([]*Source, error) {
	sets, errs := scan(fsys, dir)
	var srcs []*Source
	for _, set := range sets {
		if set.en == "" {
			continue
		}
		en, perrs := parseFile(fsys, set.en, nil)
		errs = appendErrs(errs, perrs)
		if en == nil {
			continue
		}
		srcs = append(srcs, en)
		for _, lang := range slices.Sorted(maps.Keys(set.langs)) {
			tr, terrs := parseFile(fsys, set.langs[lang], en)
			errs = appendErrs(errs, terrs)
			if tr != nil {
				srcs = append(srcs, tr)
			}
		}
	}
	sortErrors(errs)
	return srcs, errors.Join(errs...)
}

// fileSet is one walkthrough's files: the English original and its
// translations by language.
type fileSet struct {
	id    string
	en    string
	langs map[string]string
}

// scan lists the walkthrough files of dir. README.md and names starting
// with "_" or "." are not walkthroughs (a directory may carry notes for
// authors).
func scan(fsys fs.FS, dir string) ([]*fileSet, []error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, []error{fmt.Errorf("walkthroughs: %w", err)}
	}
	var errs []error
	byID := map[string]*fileSet{}
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, "_") || strings.HasPrefix(name, ".") {
			continue
		}
		file := path.Join(dir, name)
		if e.IsDir() {
			// Only the top level is read: a walkthrough further down
			// would be skipped without a word, and a check pass having
			// checked nothing.
			if md := firstMarkdown(fsys, file); md != "" {
				top := "the top of the walkthrough directory"
				if dir != "." {
					top = dir
				}
				errs = append(errs, &Error{File: md, Msg: "walkthroughs in subdirectories are not read: move it to " + top + ", or start the subdirectory's name with _ to keep it out"})
			}
			continue
		}
		if !isMarkdown(name) || strings.EqualFold(name, "README.md") {
			continue
		}
		if !strings.HasSuffix(name, ".md") {
			errs = append(errs, &Error{File: file, Msg: "file name: a walkthrough's name ends in .md, in lower case: rename it to " + strings.TrimSuffix(name, path.Ext(name)) + ".md"})
			continue
		}
		id, lang, ok := splitName(name)
		if !ok {
			errs = append(errs, &Error{File: file, Msg: "file name: want <id>.md or <id>.<lang>.md, lower-case letters, digits, - and _"})
			continue
		}
		set := byID[id]
		if set == nil {
			set = &fileSet{id: id, langs: map[string]string{}}
			byID[id] = set
		}
		if lang == "en" {
			set.en = file
		} else {
			set.langs[lang] = file
		}
	}
	var sets []*fileSet
	for _, id := range slices.Sorted(maps.Keys(byID)) {
		set := byID[id]
		if set.en == "" {
			for _, lang := range slices.Sorted(maps.Keys(set.langs)) {
				errs = append(errs, &Error{File: set.langs[lang], Msg: fmt.Sprintf("translation without an English original %s", path.Join(dir, id+".md"))})
			}
		}
		sets = append(sets, set)
	}
	return sets, errs
}

// isMarkdown reports whether name ends in .md in any case.
func isMarkdown(name string) bool {
	return strings.EqualFold(path.Ext(name), ".md")
}

// firstMarkdown returns the first walkthrough-like file under dir (a .md
// in any case, not a README or a name starting with _ or .), "" for none.
func firstMarkdown(fsys fs.FS, dir string) string {
	found := ""
	_ = fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable: nothing there can be read as a walkthrough either
		}
		name := d.Name()
		if p != dir && (strings.HasPrefix(name, "_") || strings.HasPrefix(name, ".")) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if !d.IsDir() && isMarkdown(name) && !strings.EqualFold(name, "README.md") {
			found = p
			return fs.SkipAll
		}
		return nil
	})
	return found
}

// Files returns the walkthrough files of dir, originals and translations,
// sorted, and the problems of their names or places (a walkthrough in a
// subdirectory, a name in upper case): what Load and Check would read.
func Files(fsys fs.FS, dir string) ([]string, error) {
	sets, errs := scan(fsys, dir)
	var files []string
	for _, set := range sets {
		if set.en != "" {
			files = append(files, set.en)
		}
		files = append(files, slices.Collect(maps.Values(set.langs))...)
	}
	slices.Sort(files)
	sortErrors(errs)
	return files, errors.Join(errs...)
}

func parseFile(fsys fs.FS, file string, base *Source) (*Source, []error) {
	src, err := readFile(fsys, file)
	if err != nil {
		return nil, []error{err}
	}
	s, errs := parse(file, src, base)
	return s, errs.errors()
}

func (l errorList) errors() []error {
	out := make([]error, len(l))
	for i, e := range l {
		out[i] = e
	}
	return out
}

func appendErrs(dst, src []error) []error { return append(dst, src...) }

// builder resolves and renders one Source.
type builder struct {
	opts *Options
	file string
	errs errorList
}

// resolve resolves a reference, reporting failure at file:line:col.
func (b *builder) resolve(file string, line, col int, text string, ref fact.Ref) (fact.Resolved, bool) {
	res, err := b.lookup(ref)
	if err != nil {
		b.report(file, line, col, text, err)
		return fact.Resolved{}, false
	}
	return res, true
}

// lookup resolves ref. A regexp that matches nothing is not an error
// here (Matched is empty): callers say which regexp failed and where.
func (b *builder) lookup(ref fact.Ref) (fact.Resolved, error) {
	if b.opts.Resolver == nil {
		return fact.Resolved{}, errors.New("no resolver")
	}
	res, err := b.opts.Resolver.Resolve(ref)
	if errors.Is(err, fact.ErrNoMatch) && ref.Lines != "" {
		// Resolve again without the regexp for the symbol, so the
		// message can name the declaration.
		res, err = b.opts.Resolver.Resolve(fact.Ref{Alternates: ref.Alternates})
		res.Matched = nil
	}
	return res, err
}

// report reports a failed resolution.
func (b *builder) report(file string, line, col int, text string, err error) {
	e := &Error{File: file, Line: line, Col: col, Err: err, Msg: fmt.Sprintf("reference %s: %v", text, err)}
	if nf, ok := errors.AsType[*fact.NotFoundError](err); ok {
		e.Msg = fmt.Sprintf("reference %s does not resolve", text)
		if len(nf.NoPackage) > 0 {
			e.Msg += fmt.Sprintf(" (package %s is not loaded)", strings.Join(nf.NoPackage, ", "))
		}
		e.Suggestions = nf.Suggestions
	}
	b.errs = append(b.errs, e)
}

// targets are what links from the walkthroughs ens may name: themselves
// and Also.
func (o *Options) targets(ens []*Source) LinkTargets {
	t := targetsOf(ens)
	for id, anchors := range o.Also {
		if _, own := t[id]; !own {
			t[id] = anchors
		}
	}
	return t
}

// parseOriginals parses the English file of each set (nil where there is
// none) and reports which parsed without syntax errors; the errors are
// appended to errs.
func parseOriginals(fsys fs.FS, sets []*fileSet, errs []error) (ens []*Source, clean []bool, _ []error) {
	ens, clean = make([]*Source, len(sets)), make([]bool, len(sets))
	for i, set := range sets {
		if set.en == "" {
			continue
		}
		en, perrs := parseFile(fsys, set.en, nil)
		errs = appendErrs(errs, perrs)
		ens[i], clean[i] = en, len(perrs) == 0
	}
	return ens, clean, errs
}

// build resolves every reference of s and makes a Doc of it. Links to
// other walkthroughs are checked against targets (nil: not checked).
func build(s *Source, opts *Options, targets LinkTargets) (*Doc, []error) {
	b := &builder{opts: opts, file: s.File}
	b.linkWalkthroughs(s, targets)
	_ = ast.Walk(s.doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		r, ok := n.(*refLink)
		if !ok || !entering || r.err != nil {
			return ast.WalkContinue, nil
		}
		line, col := s.lineCol(refPos(r, s.src))
		res, err := b.lookup(r.ref)
		switch {
		case err != nil:
			b.report(s.File, line, col, string(r.dest), err)
		case r.ref.Lines != "" && len(res.Matched) == 0:
			b.errs.add(s.File, line, col, "reference %s: /%s/ matches no line of %s (%s)", r.dest, r.ref.Lines, res.Symbol.Name, span(res.Symbol.Decl))
		default:
			r.resolved = &res
		}
		return ast.WalkContinue, nil
	})

	en := s
	if s.base != nil {
		en = s.base
	}
	doc := &Doc{
		ID:           s.ID,
		Lang:         s.Lang,
		File:         s.File,
		Title:        s.Title,
		Summary:      s.Summary,
		Topics:       s.Topics,
		Order:        s.Order,
		Participants: s.Participants,
	}
	// A translation's messages name the English participants; show the
	// translated names, one for one.
	rename := func(p string) string {
		if i := slices.Index(en.Meta.Participants, p); i >= 0 && i < len(doc.Participants) {
			return doc.Participants[i]
		}
		return p
	}
	doc.Intro, _ = b.segments(s, s.intro)
	for _, st := range s.steps {
		step := Step{
			ID:    st.ID,
			Title: st.Title,
			Line:  st.Line,
			From:  rename(st.From),
			To:    rename(st.To),
			Label: st.Label,
			Stale: st.Stale(),
		}
		step.Refs = linkRefs(s, st.heading)
		segs, refs := b.segments(s, st.blocks)
		step.Segments = segs
		step.Refs = append(step.Refs, refs...)
		doc.Steps = append(doc.Steps, step)
	}
	return doc, b.errs.errors()
}

// segments makes segments of a run of blocks: consecutive Markdown
// blocks one Markdown segment, excerpts and facts their own.
func (b *builder) segments(s *Source, blocks []block) ([]Segment, []Ref) {
	var segs []Segment
	var refs []Ref
	var run []ast.Node
	flush := func() {
		if len(run) > 0 {
			segs = append(segs, Segment{Markdown: &Markdown{Source: s.src, Blocks: run}})
			run = nil
		}
	}
	for _, bl := range blocks {
		switch {
		case bl.node != nil:
			// A link reference definition renders as nothing: a run of
			// them alone makes no segment.
			if bl.node.Kind() != ast.KindLinkReferenceDefinition {
				run = append(run, bl.node)
			}
			refs = append(refs, linkRefs(s, bl.node)...)
		case bl.excerpt != nil:
			flush()
			spec, file, caption, notrun := bl.excerpt, s.File, bl.excerpt.caption, bl.excerpt.notrun
			if bl.excerpt.kv["use"].present {
				spec = bl.excerpt.use
				if spec == nil {
					continue // reported by Parse
				}
				if s.base != nil {
					file = s.base.File
				}
				caption = cmp.Or(caption, spec.caption)
				if s.base == nil {
					// A translation says why in its own language.
					notrun = cmp.Or(notrun, spec.notrun)
				}
			}
			if ex := b.resolveExcerpt(file, spec, caption, notrun); ex != nil {
				segs = append(segs, Segment{Excerpt: ex})
				refs = append(refs, ex.Ref)
			}
		case bl.facts != nil:
			flush()
			if fb := b.query(bl.facts); fb != nil {
				segs = append(segs, Segment{Facts: fb})
			}
		}
	}
	flush()
	return segs, refs
}

// linkRefs lists the resolved inline references under n.
func linkRefs(s *Source, n ast.Node) []Ref {
	var refs []Ref
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if r, ok := c.(*refLink); ok && entering && r.resolved != nil {
			line, _ := s.lineCol(refPos(r, s.src))
			ref := Ref{File: s.File, Text: string(r.dest), Line: line, Ref: r.ref, Resolved: *r.resolved}
			if r.mark != nil {
				ref.NotRun = r.mark.reason
			}
			refs = append(refs, ref)
		}
		return ast.WalkContinue, nil
	})
	return refs
}

// nearest returns up to three of names closest to name by edit distance,
// for "did you mean".
func nearest(name string, names []string) []string {
	type cand struct {
		s string
		d int
	}
	var cs []cand
	for _, n := range names {
		if d := levenshtein.ComputeDistance(name, n); d <= max(2, len(name)/3) {
			cs = append(cs, cand{n, d})
		}
	}
	slices.SortStableFunc(cs, func(a, b cand) int { return cmp.Compare(a.d, b.d) })
	var out []string
	for i := 0; i < len(cs) && i < 3; i++ {
		out = append(out, cs[i].s)
	}
	return out
}
