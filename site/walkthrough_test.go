package site

import (
	"testing"

	"github.com/kubewalk/kubewalk/internal/linkcheck"
)

// TestWalkthroughMarkdown renders hostile Markdown through the walkthrough
// package with the site's link rules, builds the site and checks that nothing
// executable survives and that every symbol link resolves.
func TestWalkthroughMarkdown(t *testing.T) {
	s := testBuild(t, `
-- walkthroughs/hostile.md --
---
title: Hostile <script>alert('t')</script>
summary: 'x" onmouseover="alert(1)'
participants: [a, b]
---

Intro with <script>alert('raw')</script> raw HTML, a [js link](javascript:alert(1)), [data](data:text/html,x) and <img src=x onerror=alert(1)>.

## Step one {from="a" to="b" label="<img src=x onerror=alert(2)>"}

See [rolloutRolling](go:k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.rolloutRolling) and [the file's name](<go:k8s.io/kubernetes/pkg/odd.Evil>).

~~~excerpt
ref: k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.rolloutRolling
lines: getNewReplicaSet
caption: <script>alert('cap')</script>
~~~

~~~facts
events: reason=ScalingReplicaSet
~~~

~~~yaml
kind: </code></pre><script>alert('code')</script>
~~~
`)
	for _, err := range linkcheck.Check(s.Out, ScriptLinks) {
		t.Error(err)
	}
	s.AssertFileContent("walkthroughs/hostile.html",
		"! <script>alert", `! href="javascript:`, `! href="data:`, "! <img src=x", `! onmouseover="alert`,
		`href="../src/pkg/controller/deployment/sync.go.html#L`, // inline reference through SymbolURL
		`href="../src/pkg/odd/x%3Cscript%3E&amp;%27%22%23%3F.go.html#L3"`,
		`class="ln mark"`,
		// fenced code highlighted as source pages are, its text escaped
		`<pre class="code block"><code><span class=a>kind</span>: &lt;/code&gt;&lt;/pre&gt;&lt;script&gt;`,
	)
}
