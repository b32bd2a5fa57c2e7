package site

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/kubewalk/kubewalk/internal/linkcheck"
	"github.com/kubewalk/kubewalk/internal/testsupport/fakeresolver"
	"github.com/kubewalk/kubewalk/walkthrough"
)

// TestWalkthroughMarkdown renders hostile Markdown through the walkthrough
// package with the site's link rules, builds the site and checks that nothing
// executable survives and that every symbol link resolves.
func TestWalkthroughMarkdown(t *testing.T) {
	in, opts := fixture(t)
	tree := loadTree(t)
	res := fakeresolver.New(in.Facts, func(p string) string { return string(tree[p]) }, in.Symbols...)
	md := "---\n" +
		"title: Hostile <script>alert('t')</script>\n" +
		"summary: 'x\" onmouseover=\"alert(1)'\n" +
		"participants: [a, b]\n" +
		"---\n\n" +
		"Intro with <script>alert('raw')</script> raw HTML, a [js link](javascript:alert(1)), " +
		"[data](data:text/html,x) and <img src=x onerror=alert(1)>.\n\n" +
		"## Step one {from=\"a\" to=\"b\" label=\"<img src=x onerror=alert(2)>\"}\n\n" +
		"See [rolloutRolling](go:k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.rolloutRolling) " +
		"and [the file's name](<go:k8s.io/kubernetes/pkg/odd.Evil>).\n\n" +
		"```excerpt\n" +
		"ref: k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.rolloutRolling\n" +
		"lines: getNewReplicaSet\n" +
		"caption: <script>alert('cap')</script>\n" +
		"```\n\n" +
		"```facts\n" +
		"events: reason=ScalingReplicaSet\n" +
		"```\n\n" +
		"```yaml\n" +
		"kind: </code></pre><script>alert('code')</script>\n" +
		"```\n"
	fsys := fstest.MapFS{"w/hostile.md": {Data: []byte(md)}}
	docs, err := walkthrough.Load(fsys, "w", "en", walkthrough.Options{Resolver: res})
	if err != nil {
		t.Fatal(err)
	}
	in.Docs = docs
	opts.Out = filepath.Join(t.TempDir(), "public")
	if _, err := Build(context.Background(), in, opts); err != nil {
		t.Fatal(err)
	}
	for _, err := range linkcheck.Check(opts.Out, ScriptLinks) {
		t.Error(err)
	}
	page := readTree(t, opts.Out)["walkthroughs/hostile.html"]
	if page == "" {
		t.Fatal("no walkthroughs/hostile.html")
	}
	for _, bad := range []string{"<script>alert", `href="javascript:`, `href="data:`, "<img src=x", `onmouseover="alert`} {
		if strings.Contains(page, bad) {
			t.Errorf("walkthrough page contains %q", bad)
		}
	}
	for _, want := range []string{
		`href="../src/pkg/controller/deployment/sync.go.html#L`, // inline reference through SymbolURL
		`href="../src/pkg/odd/x%3Cscript%3E&amp;%27%22%23%3F.go.html#L3"`,
		`class="ln mark"`,
		// fenced code highlighted as source pages are, its text escaped
		`<pre class="code block"><code><span class=a>kind</span>: &lt;/code&gt;&lt;/pre&gt;&lt;script&gt;`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("walkthrough page lacks %s", want)
		}
	}
}
