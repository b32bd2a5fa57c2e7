package site

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kubewalk/kubewalk/internal/linkcheck"
	"github.com/kubewalk/kubewalk/record"
)

// TestBuildFixture builds the fixture site and checks its pages one after
// another, as a reader would open them; it stays one function because
// every check reads the one site it builds.
func TestBuildFixture(t *testing.T) {
	s := testBuild(t, "")
	files := s.Files()

	s.AssertFileExists(
		"index.html", ".kubewalk-site",
		"walkthroughs/deployment.html", "walkthroughs/watch.html",
		"src/pkg/controller/deployment/deployment_controller.go.html",
		"src/pkg/controller/deployment/sync.go.html",
		"src/pkg/scheduler/schedule_one.go.html",
		"src/pkg/odd/x<script>&'\"#?.go.html",
		"handlers.html", "events.html", "resources.html", "gates.html", "search.html",
		"search-index.js", factsFile,
		"assets/site.css", "assets/site.js", "assets/search.js",
	)
	s.AssertNoFile(
		// The search page reads search-index.js; a JSON copy would be
		// read by nothing.
		"search-index.json",
		// Identifier targets are not rendered unless something points there.
		"src/staging/src/k8s.io/client-go/tools/cache/shared_informer.go.html",
	)
	if st := s.Stats; st.Pages != 13 || st.SourcePages != 4 {
		t.Errorf("Stats = %+v, want 13 pages, 4 source pages", st)
	}

	s.AssertFileContent("walkthroughs/deployment.html",
		`<html lang="en">`,
		`<svg`,                   // the sequence diagram
		`href="#step-2-rollout"`, // diagram message → step
		`id="step-1-informer"`,   // steps
		`class="step"`,           // with a code column
		`href="../src/pkg/controller/deployment/sync.go.html#L`,     // excerpt → source page
		`<a class="gh" data-g="pkg/controller/deployment/sync.go#L`, // an excerpt's file on GitHub
		`class="ln gap"`,                    // context elided lines
		`class="ln mark"`,                   // highlighted lines
		`href="../walkthroughs/watch.html"`, // next walkthrough
		`Next step`,
		`class="factsblock"`,
		// an excerpt's link to a file the site does not render, from the
		// page's GitHub base on
		` data-gh="https://github.com/kubernetes/kubernetes/blob/v1.31.0/">`,
		`<a class=m data-g=~client-go/tools/cache/shared_informer.go#L`,
		"! 디플로이먼트", // the English site shows no Korean walkthrough
	)
	// Every page of a site of one release names the GitHub base, and its
	// links to GitHub are written from it on.
	s.AssertFileContent("handlers.html", ` data-gh="https://github.com/kubernetes/kubernetes/blob/v1.31.0/">`, `! href="https://github.com/kubernetes/kubernetes/blob/v1.31.0/`)

	s.AssertFileContent("src/pkg/controller/deployment/sync.go.html",
		`<u id=L1>`,
		// backlink to the citing step
		`href="../../../../walkthroughs/deployment.html#step-2-rollout"`,
		// identifier link into another rendered file
		`href=deployment_controller.go.html#L`,
		// and within the page, just the fragment
		`href=#L20>getNewReplicaSet</a>`,
		`https://github.com/kubernetes/kubernetes/blob/v1.31.0/pkg/controller/deployment/sync.go"`,
	)
	// AddEventHandler's file is not rendered: the link goes to GitHub,
	// named from the page's GitHub base on (site.js makes the href), and
	// the code does not write it whole.
	dc := "src/pkg/controller/deployment/deployment_controller.go.html"
	s.AssertFileContent(dc,
		`<body data-gh="https://github.com/kubernetes/kubernetes/blob/v1.31.0/">`,
		`! href=https://github.com/kubernetes/kubernetes/blob/v1.31.0/staging/`,
	)
	if !regexp.MustCompile(`<a class=m data-g=~client-go/tools/cache/shared_informer.go#L[0-9]+>AddEventHandler</a>`).MatchString(s.File(dc)) {
		t.Errorf("identifier outside the site does not link to GitHub")
	}

	s.AssertFileContent("index.html",
		"v1.31.0", "6911225c3f747e1cd9d109c305436d08b668f086", `href="walkthroughs/deployment.html"`, `href="handlers.html"`,
		// facts.json.zst is linked once, from the home page's indexes,
		// with its size and how to open it, leaving its encoding to the
		// tools' docs (analyzer/fact): the home page is a learner's.
		`<a href="facts.json.zst">facts.json.zst</a> (`+byteSize(len(files[factsFile]))+`)`,
		"<code>zstd -d facts.json.zst</code>",
		"! calls.symbols",
	)
	for p, html := range files {
		if strings.HasSuffix(p, ".html") && p != "index.html" && strings.Contains(html, "facts.json") {
			t.Errorf("%s links facts.json; only the home page does", p)
		}
	}
	// How the tree was fetched is no reader's business, and an unknown
	// commit is not shown at all.
	for p, html := range files {
		if strings.HasSuffix(p, ".html") && strings.Contains(html, "goproxy") {
			t.Errorf("%s names the backend", p)
		}
	}
	// Topics are plain words, not chips that look like buttons.
	for _, p := range []string{"index.html", "walkthroughs/deployment.html"} {
		s.AssertFileContent(p, `! <span class="topic">controllers</span>`)
	}
	home := s.File("index.html")
	if i, j := strings.Index(home, "walkthroughs/deployment.html"), strings.Index(home, "walkthroughs/watch.html"); i < 0 || j < i {
		t.Errorf("walkthroughs not in Order on the home page")
	}
	s.AssertFileContent("handlers.html", `id="wiring"`, ".syncHandler =", "addDeployment")
	s.AssertFileContent("resources.html",
		// The raw list-watch watches pods beside the informers: its field
		// selector, reflector and push function, the selector escaped.
		`<table class="facts listwatches">`, "spec.nodeName",
		"func literal in scheduler.Scheduler.bind", "! <script>alert(1)", "&lt;script&gt;alert(1)",
		"API: create", // a bind write shows the API verb
		"replicasets.apps",
	)
	s.AssertFileContent("events.html", "ScalingReplicaSet")
	s.AssertFileContent("search-index.js", "window.KUBEWALK_SEARCH = {")
	s.AssertFileContent("assets/site.css", ".code b{", ".code .t{") // codehtml's token classes
}

func TestDeterministic(t *testing.T) {
	a, _ := buildFixture(t, nil)
	b, _ := buildFixture(t, nil)
	fa, fb := readTree(t, a), readTree(t, b)
	if len(fa) != len(fb) {
		t.Fatalf("%d files vs %d", len(fa), len(fb))
	}
	for name, da := range fa {
		if da != fb[name] {
			t.Errorf("%s differs between two builds", name)
		}
	}
	// No absolute paths of the build leak into the output.
	for name, d := range fa {
		if strings.Contains(d, filepath.Dir(a)) {
			t.Errorf("%s contains the output path", name)
		}
	}
}

func TestAtomicOutput(t *testing.T) {
	in, opts := fixture(t)
	parent := t.TempDir()
	opts.Out = filepath.Join(parent, "public")
	if _, err := Build(context.Background(), in, opts); err != nil {
		t.Fatal(err)
	}
	before := readTree(t, opts.Out)

	// A build that fails halfway (a file cannot be read) leaves the old site.
	bad := in
	bad.ReadFile = func(p string) ([]byte, error) {
		if strings.HasSuffix(p, "sync.go") {
			return nil, errors.New("disk on fire")
		}
		return in.ReadFile(p)
	}
	if _, err := Build(context.Background(), bad, opts); err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Fatalf("Build with a failing ReadFile: err = %v", err)
	}
	if diff := cmp.Diff(before, readTree(t, opts.Out)); diff != "" {
		t.Errorf("failed build changed the site (-before +after):\n%s", diff)
	}
	// A cancelled build too.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Build(ctx, in, opts); err == nil {
		t.Errorf("cancelled Build succeeded")
	}
	ents, _ := os.ReadDir(parent)
	if len(ents) != 1 || ents[0].Name() != "public" {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("temporary directories left beside the output: %v", names)
	}
	// A rebuild replaces the site.
	if _, err := Build(context.Background(), in, opts); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(opts.Out)
	if err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("output dir mode = %v, %v; want 0755", fi.Mode(), err)
	}
}

func TestRefusesToReplaceOtherDirectories(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "thesis.tex"), []byte("precious"), 0o644)
	s := testBuildE(t, "", withOptions(func(o *Options) { o.Out = dir }))
	if !errors.Is(s.Err, ErrNotASite) {
		t.Fatalf("Build over a foreign directory: err = %v, want ErrNotASite", s.Err)
	}
	if s.File("thesis.tex") != "precious" {
		t.Errorf("foreign file touched")
	}
}

// TestHostileContent: script tags, javascript: URLs and quotes in titles,
// captions, topics, facts strings and file names come out as text.
func TestHostileContent(t *testing.T) {
	s := testBuild(t, "")
	scriptTag := regexp.MustCompile(`(?i)<script\b[^>]*>`)
	okScript := regexp.MustCompile(`^<script src="[^"]+\.js"></script>`)
	for name, d := range s.Files() {
		if !strings.HasSuffix(name, ".html") {
			continue
		}
		for _, loc := range scriptTag.FindAllStringIndex(d, -1) {
			if !okScript.MatchString(d[loc[0]:]) {
				t.Errorf("%s: unexpected %q", name, d[loc[0]:min(len(d), loc[0]+60)])
			}
		}
		for _, bad := range []string{"<img src=x", `href="javascript:`, "onerror=alert(1)>", "<b>bold</b>"} {
			if strings.Contains(d, bad) {
				t.Errorf("%s contains %q unescaped", name, bad)
			}
		}
	}
	// The title as text.
	s.AssertFileContent("walkthroughs/deployment.html", "&lt;script&gt;alert(&#39;title&#39;)&lt;/script&gt;")
	// The hostile file name is linked percent-escaped and resolves (TestLinks).
	s.AssertFileContent("events.html", `href="src/pkg/odd/x%3Cscript%3E&amp;%27%22%23%3F.go.html#L3"`)
}

func TestKorean(t *testing.T) {
	s := testBuild(t, "", withInput(func(in *Input) { in.Lang = "ko" }))
	s.AssertFileContent("walkthroughs/deployment.html", `<html lang="ko">`, "디플로이먼트를 만들면 일어나는 일", "다음 단계", "이전 단계", ">홈<", ">이벤트<", ">핸들러<")
	// watch has no Korean translation: the English one stands in, and
	// the home page marks it.
	s.AssertFileContent("walkthroughs/watch.html", "Watches and informers")
	s.AssertFileContent("index.html", `<span class="topic">영어</span>`)
	for _, err := range linkcheck.Check(s.Out, ScriptLinks) {
		t.Error(err)
	}
}

func TestCatalogsComplete(t *testing.T) {
	for _, lang := range Languages() {
		for key := range messages["en"] {
			if _, ok := messages[lang][key]; !ok {
				t.Errorf("%s lacks %q", lang, key)
			}
		}
		for key := range messages[lang] {
			if _, ok := messages["en"][key]; !ok {
				t.Errorf("%s has %q, English does not", lang, key)
			}
		}
	}
	if _, err := catalog("xx"); err == nil {
		t.Errorf("unknown language accepted")
	}
	// A Recorded run page says what its scenario did in the page's
	// language: every scenario record runs has its words.
	for _, name := range record.ScenarioNames() {
		if _, ok := messages["en"]["scenario."+name]; !ok {
			t.Errorf("no message scenario.%s: its run page would show the key", name)
		}
	}
	// Every key the templates use exists.
	for _, name := range []string{"layout.html", "home.html", "walkthrough.html", "source.html", "handlers.html", "events.html", "resources.html", "search.html"} {
		b, err := os.ReadFile(filepath.Join("..", "templates", name))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range regexp.MustCompile(`\bt "([^"]+)"`).FindAllStringSubmatch(string(b), -1) {
			if _, ok := messages["en"][m[1]]; !ok {
				t.Errorf("%s uses unknown message %q", name, m[1])
			}
		}
	}
}

// TestHomeWithoutCommit: a release whose commit is not known shows no
// Commit row at all, rather than "Commit: unknown".
func TestHomeWithoutCommit(t *testing.T) {
	s := testBuild(t, "", withInput(func(in *Input) { in.Commit = "" }))
	s.AssertFileContent("index.html", "! >Commit<", "! unknown")
}

func TestByteSize(t *testing.T) {
	for n, want := range map[int]string{0: "0 bytes", 999: "999 bytes", 1000: "1 KB", 12_345: "12 KB", 999_499: "999 KB", 999_600: "1.0 MB", 1_000_000: "1.0 MB", 11_234_567: "11.2 MB"} {
		if got := byteSize(n); got != want {
			t.Errorf("byteSize(%d) = %q, want %q", n, got, want)
		}
	}
}
