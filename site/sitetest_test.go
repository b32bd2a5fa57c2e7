package site

import (
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"golang.org/x/tools/txtar"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/testsupport/fakeresolver"
	"github.com/kubewalk/kubewalk/walkthrough"
)

// The site tests' builder, after Hugo's integration tests: a test states
// its input as one txtar and asserts on the files of the site it gets
// back. It lives in package site, not in an internal package: the site
// tests are package site (they read unexported names such as messages
// and factsFile), and package site's own tests cannot import a package
// that imports site.
//
// The archive's files:
//
//	walkthroughs/<id>[.<lang>].md  walkthroughs, loaded in every language
//	                               (walkthrough.LoadAll) against the tree
//	tree/<repo path>               the source tree; without any, the
//	                               fixture's (testdata/tree.txtar)
//	facts.json                     the facts (fact.Facts as JSON), with
//	                               a tree of the archive's own
//
// With the fixture's tree the site has the fixture's facts, symbols and
// identifier tables, and its walkthroughs unless the archive has some,
// which replace them: the fixture's walkthroughs cite its facts, and a
// test of other walkthroughs states them whole. With a tree of its own
// the site's symbols are the tree's top-level declarations (named as the
// analyzer names them: k8s.io/kubernetes/<dir> or, under staging/src/,
// the path after it), every Go file has an identifier table linking
// those symbols, and the facts are facts.json's or none.

// testSite is a site a test built.
type testSite struct {
	t testing.TB
	// Out is the site's directory; Stats and Err what Build returned.
	Out   string
	Stats Stats
	Err   error
	files map[string]string
}

// testSiteOption changes a test site's input or options before it is
// built, after the archive is read.
type testSiteOption func(*Input, *Options)

// withInput changes the input: the fixture's modifiers (bilingual,
// withControllers, …) are such functions.
func withInput(mod func(*Input)) testSiteOption {
	return func(in *Input, _ *Options) { mod(in) }
}

// withOptions changes the options; Out may be set to build elsewhere
// than in a new temporary directory.
func withOptions(mod func(*Options)) testSiteOption {
	return func(_ *Input, o *Options) { mod(o) }
}

// testBuild builds the site of the archive and fails the test if Build
// fails.
func testBuild(t testing.TB, archive string, opts ...testSiteOption) *testSite {
	t.Helper()
	s := testBuildE(t, archive, opts...)
	if s.Err != nil {
		t.Fatalf("Build: %v", s.Err)
	}
	return s
}

// testBuildE builds the site of the archive and keeps Build's error, for
// tests of the error; an archive that cannot be read still fails the
// test.
func testBuildE(t testing.TB, archive string, opts ...testSiteOption) *testSite {
	t.Helper()
	in, o := testSiteInput(t, txtar.Parse([]byte(archive)))
	o.Out = filepath.Join(t.TempDir(), "public")
	for _, opt := range opts {
		opt(&in, &o)
	}
	st, err := Build(context.Background(), in, o)
	return &testSite{t: t, Out: o.Out, Stats: st, Err: err}
}

// testSiteInput is the site's input of the archive ar.
func testSiteInput(t testing.TB, ar *txtar.Archive) (Input, Options) {
	t.Helper()
	tree, mds := fixtureTree{}, fstest.MapFS{}
	var factsJSON []byte
	for _, f := range ar.Files {
		switch {
		case strings.HasPrefix(f.Name, "tree/"):
			tree[strings.TrimPrefix(f.Name, "tree/")] = f.Data
		case strings.HasPrefix(f.Name, "walkthroughs/") && strings.HasSuffix(f.Name, ".md"):
			mds[f.Name] = &fstest.MapFile{Data: f.Data}
		case f.Name == "facts.json":
			factsJSON = f.Data
		default:
			t.Fatalf("archive: %s is neither tree/…, walkthroughs/….md nor facts.json", f.Name)
		}
	}
	var in Input
	var opts Options
	if len(tree) == 0 {
		if factsJSON != nil {
			t.Fatal("archive: facts.json without a tree; the fixture's tree has the fixture's facts")
		}
		tree = loadTree(t)
		in, opts = fixtureOf(t, tree)
	} else {
		in, opts = fixtureRelease(t)
		in.ReadFile = tree.readFile
		in.Symbols = treeSymbols(t, tree)
		in.Xrefs = treeXrefs(tree, in.Symbols)
		in.Facts = &fact.Facts{Schema: fact.SchemaVersion, Tag: fixtureTag}
		if factsJSON != nil {
			if err := json.Unmarshal(factsJSON, in.Facts); err != nil {
				t.Fatalf("archive: facts.json: %v", err)
			}
		}
	}
	if len(mds) > 0 {
		res := fakeresolver.New(in.Facts, func(p string) string { return string(tree[p]) }, in.Symbols...)
		docs, err := walkthrough.LoadAll(mds, "walkthroughs", walkthrough.Options{Resolver: res})
		if err != nil {
			t.Fatalf("archive: walkthroughs: %v", err)
		}
		in.Docs = docs
	}
	return in, opts
}

// treeSymbols are the top-level functions, methods and types of the Go
// files of tree, sorted by name, as the analyzer lists them.
func treeSymbols(t testing.TB, tree fixtureTree) []fact.Symbol {
	t.Helper()
	var syms []fact.Symbol
	for p, src := range tree {
		if !strings.HasSuffix(p, ".go") {
			continue
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("archive: tree/%s: %v", p, err)
		}
		pkg := "k8s.io/kubernetes/" + path.Dir(p)
		if rest, ok := strings.CutPrefix(path.Dir(p), "staging/src/"); ok {
			pkg = rest
		}
		add := func(name, kind string, n ast.Node) {
			loc := fact.Location{Path: p, StartLine: fset.Position(n.Pos()).Line, EndLine: fset.Position(n.End()).Line}
			syms = append(syms, fact.Symbol{Name: pkg + "." + name, Kind: kind, Decl: loc, Body: loc})
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					add(d.Name.Name, "func", d)
					continue
				}
				recv := d.Recv.List[0].Type
				if star, ok := recv.(*ast.StarExpr); ok {
					recv = star.X
				}
				if id, ok := recv.(*ast.Ident); ok {
					add(id.Name+"."+d.Name.Name, "method", d)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok {
						var n ast.Node = ts
						if len(d.Specs) == 1 {
							n = d
						}
						add(ts.Name.Name, "type", n)
					}
				}
			}
		}
	}
	sort.Slice(syms, func(i, j int) bool { return syms[i].Name < syms[j].Name })
	return syms
}

// treeXrefs are the identifier tables of tree's Go files, each
// identifier that names one of syms linked to its declaration.
func treeXrefs(tree fixtureTree, syms []fact.Symbol) []fact.FileXref {
	byShort := map[string]fact.Symbol{}
	for _, s := range syms {
		byShort[s.Name[strings.LastIndex(s.Name, ".")+1:]] = s
	}
	var xrefs []fact.FileXref
	for _, p := range slices.Sorted(maps.Keys(tree)) {
		if strings.HasSuffix(p, ".go") {
			xrefs = append(xrefs, fact.FileXref{Path: p, Idents: synthIdents(p, tree[p], byShort)})
		}
	}
	return xrefs
}

// File is the text of the site's file at path (slash-separated, relative
// to Out); a file the site does not have fails the test.
func (s *testSite) File(p string) string {
	s.t.Helper()
	d, ok := s.Files()[p]
	if !ok {
		s.t.Fatalf("%s: the site has no such file", p)
	}
	return d
}

// Files are the site's files by slash path, read once.
func (s *testSite) Files() map[string]string {
	s.t.Helper()
	if s.files == nil {
		s.files = readTree(s.t, s.Out)
	}
	return s.files
}

// AssertFileExists fails the test if the site lacks any of paths.
func (s *testSite) AssertFileExists(paths ...string) {
	s.t.Helper()
	for _, p := range paths {
		if _, ok := s.Files()[p]; !ok {
			s.t.Errorf("%s: the site has no such file", p)
		}
	}
}

// AssertNoFile fails the test if the site has any of paths.
func (s *testSite) AssertNoFile(paths ...string) {
	s.t.Helper()
	for _, p := range paths {
		if _, ok := s.Files()[p]; ok {
			s.t.Errorf("%s: the site has it, and should not", p)
		}
	}
}

// AssertFileContent fails the test unless the file at path contains
// every one of matches; a match that starts with "! " is one the file
// must not contain. A failure names the file and shows the text around
// the unwanted match, or around the longest start of a wanted one that
// is there.
func (s *testSite) AssertFileContent(p string, matches ...string) {
	s.t.Helper()
	d, ok := s.Files()[p]
	if !ok {
		s.t.Errorf("%s: the site has no such file", p)
		return
	}
	for _, m := range matches {
		if not, ok := strings.CutPrefix(m, "! "); ok {
			if i := strings.Index(d, not); i >= 0 {
				s.t.Errorf("%s: has %q, and should not:\n%s", p, not, excerptAt(d, i, len(not)))
			}
			continue
		}
		if strings.Contains(d, m) {
			continue
		}
		near := "its start:\n" + excerptAt(d, 0, 0)
		for n := len(m) - 1; n >= min(len(m), 8); n-- {
			if i := strings.Index(d, m[:n]); i >= 0 {
				near = fmt.Sprintf("its longest start there, %q:\n", m[:n]) + excerptAt(d, i, n)
				break
			}
		}
		s.t.Errorf("%s: lacks %q; %s", p, m, near)
	}
}

// excerptAt is d around the n bytes at i, a line or two either side,
// cut between characters.
func excerptAt(d string, i, n int) string {
	const around = 120
	from, to := max(0, i-around), min(len(d), i+n+around)
	for from > 0 && !utf8.RuneStart(d[from]) {
		from--
	}
	for to < len(d) && !utf8.RuneStart(d[to]) {
		to++
	}
	ex := d[from:to]
	if from > 0 {
		ex = "…" + ex
	}
	if to < len(d) {
		ex += "…"
	}
	return "\t" + strings.ReplaceAll(ex, "\n", "\n\t")
}
