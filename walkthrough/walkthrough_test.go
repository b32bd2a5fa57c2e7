package walkthrough

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"html"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer"
	ghtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"
	"golang.org/x/tools/txtar"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/testsupport/fakeresolver"
)

var update = flag.Bool("update", false, "rewrite the golden sections of testdata/*.txtar")

// parseSymbols reads a symbols section:
//
//	== k8s.io/x/pkg.Foo pkg/foo.go:10 func
//	func Foo() {
//	}
func parseSymbols(t testing.TB, data []byte) map[string]fakeresolver.Symbol {
	syms := map[string]fakeresolver.Symbol{}
	var cur *fakeresolver.Symbol
	var name string
	flush := func() {
		if cur != nil {
			cur.Symbol.Decl.EndLine = cur.Symbol.Decl.StartLine + len(cur.Lines) - 1
			syms[name] = *cur
		}
	}
	for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if h, ok := strings.CutPrefix(l, "== "); ok {
			flush()
			f := strings.Fields(h)
			if len(f) != 3 {
				t.Fatalf("bad symbol header %q", l)
			}
			p, ln, _ := strings.Cut(f[1], ":")
			start, _ := strconv.Atoi(ln)
			name = f[0]
			cur = &fakeresolver.Symbol{Symbol: fact.Symbol{Name: f[0], Kind: f[2], Decl: fact.Location{Path: p, StartLine: start}}}
			continue
		}
		if cur != nil {
			cur.Lines = append(cur.Lines, l)
		}
	}
	flush()
	return syms
}

// mapFS returns the walkthroughs/ files of a txtar archive.
func mapFS(t testing.TB, file string) fstest.MapFS {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	fsys := fstest.MapFS{}
	for _, f := range ar.Files {
		if strings.HasPrefix(f.Name, "walkthroughs/") {
			fsys[f.Name] = &fstest.MapFile{Data: f.Data}
		}
	}
	return fsys
}

// resolverOf returns a fake resolver from a txtar archive's symbols.txt
// and facts.json.
func resolverOf(t testing.TB, file string) *fakeresolver.Resolver {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	res := &fakeresolver.Resolver{Symbols: map[string]fakeresolver.Symbol{}}
	for _, f := range ar.Files {
		switch f.Name {
		case "symbols.txt":
			res.Symbols = parseSymbols(t, f.Data)
		case "facts.json":
			res.Found = new(fact.Facts)
			if err := json.Unmarshal(f.Data, res.Found); err != nil {
				t.Fatal(err)
			}
		}
	}
	return res
}

func testOptions(r Resolver) Options { return Options{Resolver: r} }

// dump renders Markdown as the tests compare it: goldmark's HTML, with
// this package's nodes written as what they hold (dumpNodes).
var dump = func() renderer.Renderer {
	m := goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough))
	m.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(dumpNodes{}, 100)))
	return m.Renderer()
}()

// dumpNodes writes an inline reference as <ref dest=… title=…
// to="NAME path:from-to">text</ref> (to, once resolved: the symbol and
// the lines matched or its declaration's) and a link to another
// walkthrough as <walk to="ID#anchor">text</walk>.
type dumpNodes struct{}

func (dumpNodes) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(KindRefLink, func(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			w.WriteString("</ref>")
			return ast.WalkContinue, nil
		}
		r, _ := RefNodeOf(n)
		fmt.Fprintf(w, `<ref dest="%s"`, html.EscapeString(r.Dest))
		if r.Title != nil {
			w.WriteString(` title="`)
			ghtml.DefaultWriter.Write(w, r.Title)
			w.WriteString(`"`)
		}
		if r.Resolved != nil {
			loc := r.Resolved.Symbol.Decl
			from, to := loc.StartLine, loc.EndLine
			if m := r.Resolved.Matched; len(m) > 0 {
				from, to = m[0], m[len(m)-1]
			}
			fmt.Fprintf(w, ` to="%s %s:%d-%d"`, html.EscapeString(r.Resolved.Symbol.Name), html.EscapeString(loc.Path), from, to)
		}
		w.WriteString(">")
		return ast.WalkContinue, nil
	})
	reg.Register(KindWalkLink, func(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			w.WriteString("</walk>")
			return ast.WalkContinue, nil
		}
		l, _ := WalkNodeOf(n)
		fmt.Fprintf(w, `<walk to="%s#%s">`, html.EscapeString(l.ID), html.EscapeString(l.Anchor))
		return ast.WalkContinue, nil
	})
}

// markdownText is m as dump renders it.
func markdownText(m *Markdown) (string, error) {
	var b bytes.Buffer
	for _, n := range m.Blocks {
		if err := dump.Render(&b, m.Source, n); err != nil {
			return "", err
		}
	}
	return b.String(), nil
}

// segmentsText is the Markdown of segs as dump renders it.
func segmentsText(t testing.TB, segs []Segment) string {
	t.Helper()
	var b strings.Builder
	for _, s := range segs {
		if s.Markdown != nil {
			m, err := markdownText(s.Markdown)
			if err != nil {
				t.Fatal(err)
			}
			b.WriteString(m)
		}
	}
	return b.String()
}

// goldenDoc is a Doc as the golden files show it: its Markdown as dump
// renders it, as markdown.
type goldenDoc struct {
	*Doc
	Intro []goldenSegment `json:"intro,omitempty"`
	Steps []goldenStep    `json:"steps"`
}

type goldenStep struct {
	*Step
	Segments []goldenSegment `json:"segments,omitempty"`
	Refs     []Ref           `json:"refs,omitempty"`
}

type goldenSegment struct {
	Markdown string      `json:"markdown,omitempty"`
	Excerpt  *Excerpt    `json:"excerpt,omitempty"`
	Facts    *FactsBlock `json:"facts,omitempty"`
}

func golden(t *testing.T, docs []*Doc) []goldenDoc {
	t.Helper()
	segs := func(ss []Segment) []goldenSegment {
		var out []goldenSegment
		for _, s := range ss {
			out = append(out, goldenSegment{Markdown: segmentsText(t, []Segment{s}), Excerpt: s.Excerpt, Facts: s.Facts})
		}
		return out
	}
	var out []goldenDoc
	for _, d := range docs {
		g := goldenDoc{Doc: d, Intro: segs(d.Intro)}
		for i := range d.Steps {
			st := &d.Steps[i]
			g.Steps = append(g.Steps, goldenStep{Step: st, Segments: segs(st.Segments), Refs: st.Refs})
		}
		out = append(out, g)
	}
	return out
}

// TestGolden runs every testdata/*.txtar archive: the files under
// walkthroughs/ are the input, symbols.txt and facts.json the fake
// resolver; the golden sections are Load's Docs per language
// (<lang>.json), Check's errors (check.txt) and Refs (refs.txt).
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.txtar")
	if len(files) == 0 {
		t.Fatal("no testdata")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			fsys := mapFS(t, file)
			langs := []string{"en"}
			for name := range fsys {
				if _, lang, ok := splitName(filepath.Base(name)); ok && !slices.Contains(langs, lang) {
					langs = append(langs, lang)
				}
			}
			opts := testOptions(resolverOf(t, file))
			got := map[string]string{}
			for _, lang := range langs {
				docs, err := Load(fsys, "walkthroughs", lang, opts)
				var b bytes.Buffer
				enc := json.NewEncoder(&b)
				enc.SetIndent("", "  ")
				enc.SetEscapeHTML(false)
				if err := enc.Encode(golden(t, docs)); err != nil {
					t.Fatal(err)
				}
				if err != nil {
					fmt.Fprintf(&b, "error:\n%v\n", err)
				}
				got[lang+".json"] = b.String()
			}
			var b strings.Builder
			for _, err := range Check(fsys, "walkthroughs", opts) {
				fmt.Fprintln(&b, err)
			}
			got["check.txt"] = b.String()
			b.Reset()
			refs, err := Refs(fsys, "walkthroughs")
			for _, r := range refs {
				fmt.Fprintf(&b, "%s:%d:%d: %s => %q /%s/\n", r.File, r.Line, r.Col, r.Text, r.Ref.Alternates, r.Ref.Lines)
			}
			if err != nil {
				fmt.Fprintf(&b, "error:\n%v\n", err)
			}
			got["refs.txt"] = b.String()

			changed := false
			for _, name := range slices.Sorted(maps.Keys(got)) {
				idx := slices.IndexFunc(ar.Files, func(f txtar.File) bool { return f.Name == name })
				if idx < 0 {
					if *update {
						ar.Files = append(ar.Files, txtar.File{Name: name, Data: []byte(got[name])})
						changed = true
					} else {
						t.Errorf("%s: no golden section %s (run go test -update)", file, name)
					}
					continue
				}
				if diff := cmp.Diff(string(ar.Files[idx].Data), got[name]); diff != "" {
					if *update {
						ar.Files[idx].Data = []byte(got[name])
						changed = true
					} else {
						t.Errorf("%s: %s mismatch (-want +got):\n%s", file, name, diff)
					}
				}
			}
			if changed {
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// TestBuiltin parses the built-in walkthroughs (../walkthroughs) with a
// resolver that accepts every name: the format as the content is written.
func TestBuiltin(t *testing.T) {
	fsys := os.DirFS("..")
	if _, err := fs.Stat(fsys, "walkthroughs"); err != nil {
		t.Skip("no ../walkthroughs")
	}
	refs, err := Refs(fsys, "walkthroughs")
	if err != nil {
		t.Errorf("Refs:\n%v", err)
	}
	if len(refs) == 0 {
		t.Errorf("no references in ../walkthroughs")
	}
	// Nothing in their prose reads as HTML, which the site would leave out.
	srcs, err := ParseDir(fsys, "walkthroughs")
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range srcs {
		for _, d := range src.DroppedHTML() {
			t.Errorf("%s:%d:%d: %s reads as HTML, which the site leaves out", src.File, d.Line, d.Col, d.Text)
		}
	}
}

// sameMarkdown compares Markdown by what dump renders of it: goldmark
// nodes are not comparable field by field.
var sameMarkdown = cmp.Comparer(func(a, b *Markdown) bool {
	if a == nil || b == nil {
		return a == b
	}
	ta, errA := markdownText(a)
	tb, errB := markdownText(b)
	return errA == nil && errB == nil && ta == tb
})
