package site

import (
	"fmt"
	"strings"
	"testing"
)

// failures is a testing.TB that keeps the failures reported to it rather
// than failing: the test of a helper's assertions.
type failures struct {
	testing.TB
	msgs []string
}

func (f *failures) Helper() {}

func (f *failures) Errorf(format string, args ...any) {
	f.msgs = append(f.msgs, fmt.Sprintf(format, args...))
}

func (f *failures) Fatalf(format string, args ...any) {
	f.msgs = append(f.msgs, fmt.Sprintf(format, args...))
}

// TestSiteBuilderOwnTree: an archive with a tree of its own gets its
// symbols from the tree's declarations, identifier links between them,
// facts from facts.json, and walkthroughs resolved against that tree.
func TestSiteBuilderOwnTree(t *testing.T) {
	s := testBuild(t, `
-- tree/pkg/controller/job/job.go --
package job

// Controller runs Jobs.
type Controller struct{}

func (c *Controller) sync(key string) error {
	return c.startPods(key)
}

func (c *Controller) startPods(key string) error {
	recordEvent("SuccessfulCreate")
	return nil
}
-- facts.json --
{"events": [{
	"caller": {"symbol": "k8s.io/kubernetes/pkg/controller/job.Controller.startPods", "decl": {"path": "pkg/controller/job/job.go", "start": 10, "end": 13}},
	"at": {"path": "pkg/controller/job/job.go", "start": 11, "end": 11},
	"recorder": "recorder", "method": "Event", "type": "Normal", "reason": "SuccessfulCreate", "reasonExpr": "\"SuccessfulCreate\""
}]}
-- walkthroughs/job.md --
---
title: A Job starts its Pods
---

## The sync

[sync](go:k8s.io/kubernetes/pkg/controller/job.Controller.sync) starts them.

~~~excerpt
ref: k8s.io/kubernetes/pkg/controller/job.Controller.startPods
lines: recordEvent
~~~
`)
	s.AssertFileExists("walkthroughs/job.html", "src/pkg/controller/job/job.go.html")
	s.AssertFileContent("walkthroughs/job.html",
		"A Job starts its Pods",
		`href="../src/pkg/controller/job/job.go.html#L6`, // the inline reference
		`class="ln mark"><span class="nr">11</span>`,     // the excerpt's line
	)
	s.AssertFileContent("src/pkg/controller/job/job.go.html", `href=#L10>startPods</a>`)
	s.AssertFileContent("events.html", "SuccessfulCreate", "job.go.html#L11")
}

// TestSiteBuilderReports: a failed assertion names the file, quotes the
// match and shows the text around it.
func TestSiteBuilderReports(t *testing.T) {
	s := testBuild(t, "")
	f := &failures{TB: t}
	s.t = f
	s.AssertFileContent("index.html", "v1.31.0", "! v1.31.0", `href="handlers.html#nowhere"`)
	s.AssertFileExists("nowhere.html")
	s.AssertNoFile("index.html")
	if len(f.msgs) != 4 {
		t.Fatalf("%d failures, want 4 (a negated match, a missing one, a missing file, an unwanted one):\n%s", len(f.msgs), strings.Join(f.msgs, "\n"))
	}
	if m := f.msgs[0]; !strings.HasPrefix(m, `index.html: has "v1.31.0", and should not:`) || !strings.Contains(m, "\t") || !strings.Contains(m, "v1.31.0") {
		t.Errorf("a negated match reported as %q, want the file, the match and the text around it", m)
	}
	if m := f.msgs[1]; !strings.HasPrefix(m, `index.html: lacks "href=\"handlers.html#nowhere\""; its longest start there, "href=\"handlers.html`) {
		t.Errorf("a missing match reported as %q, want the file, the match and its longest start there", m)
	}
	if f.msgs[2] != "nowhere.html: the site has no such file" || f.msgs[3] != "index.html: the site has it, and should not" {
		t.Errorf("file assertions reported as %q", f.msgs[2:])
	}
}
