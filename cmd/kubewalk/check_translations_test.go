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

// TestTranslationMarkWarnings: a translated step that leaves out a mark
// its English step has, or adds one, draws a warning; marks alike in
// both, inline or in an excerpt, draw nothing.
func TestTranslationMarkWarnings(t *testing.T) {
	const en = "---\ntitle: W\n---\n## One\n\n[F](go:k8s.io/x/p.F){notrun=\"an error path\"}\n\n```excerpt\nname: g\nref: k8s.io/x/p.G\nnotrun: a rollback\n```\n\n## Two\n\n[F](go:k8s.io/x/p.F)\n"
	const ko = "---\ntitle: K\n---\n## 하나\n\n[F](go:k8s.io/x/p.F){notrun=\"오류 경로\"}\n\n```excerpt\nuse: g\n```\n\n## 둘\n\n[F](go:k8s.io/x/p.F){notrun=\"오류 경로\"}\n"
	srcs, err := walkthrough.ParseDir(fstest.MapFS{"w.md": {Data: []byte(en)}, "w.ko.md": {Data: []byte(ko)}}, ".")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	translationWarnings(&b, "walkthroughs", srcs)
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		if strings.Contains(l, "as not meant to run") {
			got = append(got, l)
		}
	}
	want := []string{
		`walkthroughs/w.ko.md:4: warning: step 1 does not mark k8s.io/x/p.G as not meant to run, as the English step does: write the reason in this file's language, {notrun="…"} after the link or notrun: in the excerpt`,
		`walkthroughs/w.ko.md:12: warning: step 2 marks k8s.io/x/p.F as not meant to run, which the English step does not: remove the mark, or mark the English step too`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
