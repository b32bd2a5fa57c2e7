package site

import (
	"bytes"
	"context"
	"fmt"
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
	"golang.org/x/tools/txtar"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/testsupport/fakeresolver"
	"github.com/kubewalk/kubewalk/source"
	"github.com/kubewalk/kubewalk/walkthrough"
)

// fixtureTree is testdata/tree.txtar as files by repository path.
type fixtureTree map[string][]byte

func loadTree(t testing.TB) fixtureTree {
	t.Helper()
	ar, err := txtar.ParseFile("testdata/tree.txtar")
	if err != nil {
		t.Fatal(err)
	}
	tree := fixtureTree{}
	for _, f := range ar.Files {
		tree[f.Name] = f.Data
	}
	return tree
}

// line is the 1-based line of the first occurrence of substr in path.
func (tr fixtureTree) line(t testing.TB, path, substr string) int {
	t.Helper()
	src, ok := tr[path]
	if !ok {
		t.Fatalf("fixture has no %s", path)
	}
	i := bytes.Index(src, []byte(substr))
	if i < 0 {
		t.Fatalf("%s has no %q", path, substr)
	}
	return bytes.Count(src[:i], []byte("\n")) + 1
}

// decl spans from the line of start to the first line after it that is
// exactly "}" (the end of a top-level declaration).
func (tr fixtureTree) decl(t testing.TB, path, start string) fact.Location {
	t.Helper()
	from := tr.line(t, path, start)
	lines := strings.Split(string(tr[path]), "\n")
	for i := from; i <= len(lines); i++ {
		if lines[i-1] == "}" || strings.Contains(lines[i-1], "{}") && i == from {
			return fact.Location{Path: path, StartLine: from, EndLine: i}
		}
	}
	t.Fatalf("%s: no end for %q", path, start)
	return fact.Location{}
}

const fixtureTag = "v1.31.0"

// synthIdents makes an identifier table for src the way the analyzer
// would: every identifier naming one of syms links to its declaration,
// and a package's name before a selector to its import (path's last
// element) in path.
func synthIdents(path string, src []byte, syms map[string]fact.Symbol) []fact.Ident {
	fset := token.NewFileSet()
	f := fset.AddFile("x.go", -1, len(src))
	var s scanner.Scanner
	s.Init(f, src, nil, 0)
	var ids []fact.Ident
	imports := map[string]int{} // package name → its import's line
	prev := token.ILLEGAL
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.STRING && prev == token.IMPORT {
			p, _ := strconv.Unquote(lit)
			imports[p[strings.LastIndex(p, "/")+1:]] = f.Line(pos)
		}
		prev = tok
		if tok != token.IDENT {
			continue
		}
		id := fact.Ident{Off: f.Offset(pos), Len: len(lit), Kind: "var"}
		if line, ok := imports[lit]; ok && id.Off+len(lit) < len(src) && src[id.Off+len(lit)] == '.' {
			id.Kind, id.Target = "pkg", fact.Location{Path: path, StartLine: line, EndLine: line}
		} else if sym, ok := syms[lit]; ok {
			id.Kind = sym.Kind
			id.Target = fact.Location{Path: sym.Decl.Path, StartLine: sym.Decl.StartLine, EndLine: sym.Decl.StartLine}
			id.Def = f.Line(pos) == sym.Decl.StartLine
		}
		ids = append(ids, id)
	}
	return ids
}

// fixture is a small site's input: the tree above, facts, symbols, xrefs
// and three walkthroughs (two languages of one, and a second one). It
// stays one function: the facts, symbols and walkthroughs name each
// other's paths, symbols and lines, and read best side by side.
// addSymbols adds syms to in's symbols, which stay sorted by name as
// Input.Symbols are.
func addSymbols(in *Input, syms ...fact.Symbol) {
	in.Symbols = append(slices.Clone(in.Symbols), syms...)
	slices.SortStableFunc(in.Symbols, func(a, b fact.Symbol) int { return strings.Compare(a.Name, b.Name) })
}

func fixture(t testing.TB) (Input, Options) {
	t.Helper()
	return fixtureOf(t, loadTree(t))
}

// fixtureOf is fixture of the tree tr: its facts, symbols and
// walkthroughs cite tr's lines.
func fixtureOf(t testing.TB, tr fixtureTree) (Input, Options) {
	t.Helper()
	const (
		dcPath   = "pkg/controller/deployment/deployment_controller.go"
		syncPath = "pkg/controller/deployment/sync.go"
		schPath  = "pkg/scheduler/schedule_one.go"
		stgPath  = "staging/src/k8s.io/client-go/tools/cache/shared_informer.go"
		oddPath  = "pkg/odd/x<script>&'\"#?.go"
		pkg      = "k8s.io/kubernetes/pkg/controller/deployment"
	)
	sym := func(name, kind, path, start string) fact.Symbol {
		d := tr.decl(t, path, start)
		return fact.Symbol{Name: name, Kind: kind, Decl: d, Body: d}
	}
	syms := []fact.Symbol{
		sym(pkg+".DeploymentController", "type", dcPath, "type DeploymentController"),
		sym(pkg+".NewDeploymentController", "func", dcPath, "func NewDeploymentController"),
		sym(pkg+".DeploymentController.addDeployment", "method", dcPath, "func (dc *DeploymentController) addDeployment"),
		sym(pkg+".DeploymentController.syncDeployment", "method", dcPath, "func (dc *DeploymentController) syncDeployment"),
		sym(pkg+".DeploymentController.rolloutRolling", "method", syncPath, "func (dc *DeploymentController) rolloutRolling"),
		sym(pkg+".DeploymentController.getNewReplicaSet", "method", syncPath, "func (dc *DeploymentController) getNewReplicaSet"),
		sym("k8s.io/kubernetes/pkg/scheduler.Scheduler.ScheduleOne", "method", schPath, "func (sched *Scheduler) ScheduleOne"),
		sym("k8s.io/kubernetes/pkg/scheduler.Scheduler.bind", "method", schPath, "func (sched *Scheduler) bind"),
		sym("k8s.io/client-go/tools/cache.sharedIndexInformer.AddEventHandler", "method", stgPath, "func (s *sharedIndexInformer) AddEventHandler"),
		sym("k8s.io/kubernetes/pkg/odd.Evil", "func", oddPath, "func Evil"),
	}
	sort.Slice(syms, func(i, j int) bool { return syms[i].Name < syms[j].Name })
	byShort := map[string]fact.Symbol{}
	bySym := map[string]fact.Symbol{}
	for _, s := range syms {
		byShort[s.Name[strings.LastIndex(s.Name, ".")+1:]] = s
		bySym[s.Name] = s
	}
	fn := func(name string) fact.FuncRef {
		s, ok := bySym[name]
		if !ok {
			t.Fatalf("no symbol %s", name)
		}
		return fact.FuncRef{Symbol: name, Decl: s.Decl}
	}
	at := func(path, substr string) fact.Location {
		l := tr.line(t, path, substr)
		return fact.Location{Path: path, StartLine: l, EndLine: l}
	}
	// Xrefs for the root files only; the scheduler and odd files are
	// "outside the roots" and render with lexical highlighting.
	var xrefs []fact.FileXref
	for _, p := range []string{dcPath, syncPath} {
		xrefs = append(xrefs, fact.FileXref{Path: p, Idents: synthIdents(p, tr[p], byShort)})
	}
	facts := &fact.Facts{
		Schema: fact.SchemaVersion, Tag: fixtureTag, Roots: []string{pkg},
		Handlers: []fact.HandlerRegistration{{
			Component:    "pkg/controller/deployment",
			Caller:       fn(pkg + ".NewDeploymentController"),
			At:           at(dcPath, "inf.AddEventHandler"),
			Method:       "AddEventHandler",
			Informer:     fact.Resource{Group: "apps", Version: "v1", Kind: "Deployment", Resource: "deployments"},
			InformerExpr: "inf<script>alert('expr')</script>",
			Add:          &fact.Handler{FuncRef: fn(pkg + ".DeploymentController.addDeployment"), Form: "method value"},
		}},
		Wirings: []fact.Wiring{{
			Type: pkg + ".DeploymentController", Field: "syncHandler",
			Sync: fn(pkg + ".DeploymentController.syncDeployment"),
			At:   at(dcPath, "dc.syncHandler = dc.syncDeployment"),
		}},
		Writes: []fact.Write{{
			Caller:   fn(pkg + ".DeploymentController.getNewReplicaSet"),
			At:       at(syncPath, "created :="),
			Resource: fact.Resource{Group: "apps", Version: "v1", Kind: "ReplicaSet", Resource: "replicasets"},
			Verb:     "create", APIVerb: "create", Via: "AppsV1().ReplicaSets().Create",
		}, {
			// A component that writes but registers no handler.
			Caller:   fn("k8s.io/kubernetes/pkg/scheduler.Scheduler.bind"),
			At:       at(schPath, "DefaultBinder"),
			Resource: fact.Resource{Version: "v1", Kind: "Pod", Resource: "pods"},
			Verb:     "bind", APIVerb: "create", Subresource: "binding", Via: "CoreV1().Pods().Bind",
		}},
		Events: []fact.Event{
			{
				Caller: fn("k8s.io/kubernetes/pkg/odd.Evil"), At: at(oddPath, "func Evil"),
				Recorder: "record", Method: "Event", Type: "Warning",
				Reason: "<img src=x onerror=alert(1)>", ReasonExpr: `"<img src=x onerror=alert(1)>"`,
				Message: "javascript:alert(1)",
			},
			{
				Caller: fn(pkg + ".DeploymentController.getNewReplicaSet"), At: at(syncPath, "Eventf"),
				Recorder: "record", Method: "Eventf", Type: "Normal",
				Reason: "ScalingReplicaSet", ReasonExpr: "\"ScalingReplicaSet\"", Message: "Scaled up replica set %s to %d",
			},
		},
		// A raw list-watch fed to a reflector, as the kubelet's pod source,
		// with a hostile selector expression.
		ListWatches: []fact.ListWatch{{
			Component: "pkg/scheduler", Caller: fn("k8s.io/kubernetes/pkg/scheduler.Scheduler.ScheduleOne"),
			At: at(schPath, "sched.bind()"), Func: "NewListWatchFromClient",
			Resource:      fact.Resource{Version: "v1", Kind: "Pod", Resource: "pods"},
			Fields:        []string{"spec.nodeName"},
			FieldSelector: `fields.OneTermEqualSelector("spec.nodeName", "<script>alert(1)</script>")`,
			Consumers: []fact.ListWatchConsumer{{
				Kind: "reflector", Func: "NewReflector", Caller: fn("k8s.io/kubernetes/pkg/scheduler.Scheduler.bind"),
				At: at(schPath, "DefaultBinder"), Push: &fact.FuncRef{Symbol: "k8s.io/kubernetes/pkg/scheduler.Scheduler.bind$1"},
			}},
		}},
		Calls: []fact.Call{{From: pkg + ".DeploymentController.rolloutRolling", To: pkg + ".DeploymentController.getNewReplicaSet", At: at(syncPath, "rs := dc.getNewReplicaSet"), Kind: "static"}},
	}
	ref := func(name, lines string) walkthrough.Ref {
		s := bySym[name]
		r := walkthrough.Ref{Text: name, Line: 1, Ref: fact.Ref{Alternates: []string{name}, Lines: lines}, Resolved: fact.Resolved{Symbol: s}}
		if lines != "" {
			for i, l := range strings.Split(string(tr[s.Decl.Path]), "\n") {
				if i+1 >= s.Decl.StartLine && i+1 <= s.Decl.EndLine && strings.Contains(l, lines) {
					r.Resolved.Matched = append(r.Resolved.Matched, i+1)
				}
			}
		}
		return r
	}
	ex := func(name, lines string, context int, caption string) *walkthrough.Excerpt {
		r := ref(name, lines)
		return &walkthrough.Excerpt{Ref: r, From: r.Resolved.Symbol.Decl.StartLine, To: r.Resolved.Symbol.Decl.EndLine, Highlight: r.Resolved.Matched, Context: context, Caption: caption}
	}
	// link is prose with a reference to symbol name, resolved as
	// walkthrough.LoadAll resolves one.
	link := func(name string) walkthrough.Segment {
		md := fmt.Sprintf("---\ntitle: T\n---\n## S\n\nSee [`%s`](go:%s) \\<script\\>alert(1)\\</script\\>.\n", fact.ShortSymbol(name), name)
		docs, err := walkthrough.LoadAll(fstest.MapFS{"x.md": {Data: []byte(md)}}, ".", walkthrough.Options{
			Resolver: &fakeresolver.Resolver{Symbols: map[string]fakeresolver.Symbol{name: {Symbol: bySym[name]}}, Found: &fact.Facts{}},
		})
		if err != nil {
			panic(err)
		}
		return docs[0].Steps[0].Segments[0]
	}
	deployment := func(lang string, titles [4]string) *walkthrough.Doc {
		return &walkthrough.Doc{
			ID: "deployment", Lang: lang, File: "walkthroughs/deployment." + lang + ".md",
			Title: titles[0], Summary: "From kubectl apply to a running Pod <script>alert('summary')</script>",
			Topics: []string{"controllers", "<b>bold</b>"}, Order: 1,
			Participants: []string{"kubectl", "kube-apiserver", "deployment controller", "scheduler"},
			Intro:        []walkthrough.Segment{prose("Intro text.")},
			Steps: []walkthrough.Step{
				{
					ID: "step-1-informer", Title: titles[1], Line: 10, From: "kube-apiserver", To: "deployment controller", Label: "watch: Deployment added",
					Segments: []walkthrough.Segment{
						link(pkg + ".NewDeploymentController"),
						{Excerpt: ex(pkg+".NewDeploymentController", "AddEventHandler", -1, "")},
					},
					Refs: []walkthrough.Ref{ref(pkg+".NewDeploymentController", "")},
				},
				{
					ID: "step-2-rollout", Title: titles[2], Line: 20, From: "deployment controller", To: "kube-apiserver", Label: "create ReplicaSet",
					Segments: []walkthrough.Segment{
						prose("The rollout."),
						{Excerpt: ex(pkg+".DeploymentController.rolloutRolling", "getNewReplicaSet", 1, "<script>alert('caption')</script>")},
						{Facts: &walkthrough.FactsBlock{Kind: "writes", Query: "resource=replicasets", Writes: facts.Writes[:1]}},
					},
					Refs: []walkthrough.Ref{ref(pkg+".DeploymentController.rolloutRolling", "getNewReplicaSet")},
				},
				{
					ID: "step-3-schedule", Title: titles[3], Line: 30, From: "scheduler", To: "kube-apiserver", Label: "bind <pod>",
					Segments: []walkthrough.Segment{
						prose("The scheduler binds."),
						{Excerpt: ex("k8s.io/kubernetes/pkg/scheduler.Scheduler.ScheduleOne", "", -1, "")},
						{Facts: &walkthrough.FactsBlock{Kind: "events", Query: "reason=ScalingReplicaSet", Events: facts.Events[1:]}},
					},
					Refs: []walkthrough.Ref{ref("k8s.io/kubernetes/pkg/scheduler.Scheduler.ScheduleOne", "")},
				},
			},
		}
	}
	docs := []*walkthrough.Doc{
		{
			ID: "watch", Lang: "en", File: "walkthroughs/watch.md", Title: "Watches and informers", Order: 2,
			Steps: []walkthrough.Step{{ID: "step-1-watch", Title: "ListAndWatch", Line: 5, Segments: []walkthrough.Segment{prose("No code here.")}}},
		},
		deployment("ko", [4]string{"디플로이먼트를 만들면 일어나는 일", "인포머 핸들러", "롤아웃", "스케줄링"}),
		deployment("en", [4]string{"What happens when you create a Deployment <script>alert('title')</script>", "The informer handler", "rolloutRolling → getNewReplicaSet", "Scheduling"}),
	}
	in, opts := fixtureRelease(t)
	in.Facts, in.Symbols, in.Xrefs, in.Docs, in.ReadFile = facts, syms, xrefs, docs, tr.readFile
	return in, opts
}

// fixtureRelease is the input of the fixture's release with nothing in
// it: its tag, commit and backend, an English site, permalinks at the
// tag and the test's log.
func fixtureRelease(t testing.TB) (Input, Options) {
	in := Input{Tag: fixtureTag, Commit: "6911225c3f747e1cd9d109c305436d08b668f086", Backend: "goproxy", Lang: "en"}
	opts := Options{
		SourceURL: func(p string, from, to int) string { return source.Permalink(fixtureTag, p, from, to) },
		Logf:      t.Logf,
	}
	return in, opts
}

// readFile is Input.ReadFile of the tree.
func (tr fixtureTree) readFile(p string) ([]byte, error) {
	if b, ok := tr[p]; ok {
		return b, nil
	}
	return nil, fmt.Errorf("%s: %w", p, fs.ErrNotExist)
}

// buildFixture builds the fixture site into a fresh directory.
func buildFixture(t testing.TB, mod func(*Input)) (string, Stats) {
	t.Helper()
	in, opts := fixture(t)
	if mod != nil {
		mod(&in)
	}
	opts.Out = filepath.Join(t.TempDir(), "public")
	st, err := Build(context.Background(), in, opts)
	if err != nil {
		t.Fatal(err)
	}
	return opts.Out, st
}

// readTree reads every file under dir by slash path.
func readTree(t testing.TB, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// prose is a segment of Markdown text as walkthrough.Load makes one, but
// without references: a step's text in a test.
func prose(src string) walkthrough.Segment {
	md := goldmark.New(goldmark.WithExtensions(extension.Table))
	doc := md.Parser().Parse(text.NewReader([]byte(src)))
	var blocks []ast.Node
	for c := doc.FirstChild(); c != nil; c = c.NextSibling() {
		blocks = append(blocks, c)
	}
	return walkthrough.Segment{Markdown: &walkthrough.Markdown{Source: []byte(src), Blocks: blocks}}
}
