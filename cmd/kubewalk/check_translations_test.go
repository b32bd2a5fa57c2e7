package main

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/kubewalk/kubewalk/walkthrough"
)

// TestTranslationWarnings: check warns of a translated step older than
// its English step and of one that does not say what it translates,
// giving the fingerprint to write; an up-to-date step draws nothing.
func TestTranslationWarnings(t *testing.T) {
	const en = "---\ntitle: W\n---\n## One\n\nOne.\n\n## Two\n\nTwo.\n\n## Three\n\nThree.\n"
	orig, err := walkthrough.ParseDir(fstest.MapFS{"w.md": {Data: []byte(en)}}, ".")
	if err != nil {
		t.Fatal(err)
	}
	two := orig[0].Steps[1].Source
	ko := "---\ntitle: K\n---\n## 하나\n\n하나.\n\n## 둘 {en=\"" + two + "\"}\n\n둘.\n\n## 셋 {en=\"0badf00d\"}\n\n셋.\n"
	srcs, err := walkthrough.ParseDir(fstest.MapFS{"w.md": {Data: []byte(en)}, "w.ko.md": {Data: []byte(ko)}}, ".")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	n := translationWarnings(&b, "walkthroughs", srcs)
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if n != 2 || len(lines) != 2 {
		t.Fatalf("%d warnings:\n%s\nwant 2", n, b.String())
	}
	one, three := orig[0].Steps[0].Source, orig[0].Steps[2].Source
	if !strings.HasPrefix(lines[0], "walkthroughs/w.ko.md:4: warning: step 1 does not say") || !strings.Contains(lines[0], `{en="`+one+`"}`) {
		t.Errorf("unstamped step: %s", lines[0])
	}
	if !strings.HasPrefix(lines[1], "walkthroughs/w.ko.md:12: warning: step 3 was translated from an older English text (en=0badf00d)") || !strings.Contains(lines[1], `{en="`+three+`"}`) {
		t.Errorf("stale step: %s", lines[1])
	}
}
