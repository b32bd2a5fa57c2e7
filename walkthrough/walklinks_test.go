package walkthrough

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/testsupport/fakeresolver"
)

// Links between walkthroughs: written as links to the sibling .md file
// (valid on GitHub), checked against the directory's walkthroughs and
// their step anchors, and nodes naming the walkthrough and step.
func TestWalkthroughLinks(t *testing.T) {
	a := fm + "\n## First step\n\nSee [the watch](b.md#step-1-watching) and [all of b](b.md).\n"
	b := fm + "\n## Watching\n\nBack to [a](a.md#step-1-first-step).\n"
	bko := fm + "\n## 감시\n\n[a로](a.ko.md#step-1-first-step).\n"
	fsys := fstest.MapFS{"a.md": {Data: []byte(a)}, "b.md": {Data: []byte(b)}, "b.ko.md": {Data: []byte(bko)}}
	opts := testOptions(&fakeresolver.Resolver{Found: &fact.Facts{}})

	// Each link names the walkthrough and step it goes to.
	for _, lang := range []string{"en", "ko"} {
		docs, err := Load(fsys, ".", lang, opts)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, d := range docs {
			got[d.ID] = segmentsText(t, d.Steps[0].Segments[:1])
		}
		if !strings.Contains(got["a"], `<walk to="b#step-1-watching">the watch</walk>`) || !strings.Contains(got["a"], `<walk to="b#">all of b</walk>`) {
			t.Errorf("%s: a: %s", lang, got["a"])
		}
		// The Korean b links to a.ko.md, which is a's page too, and a
		// translation's anchors are its original's.
		if !strings.Contains(got["b"], `<walk to="a#step-1-first-step">`) {
			t.Errorf("%s: b: %s", lang, got["b"])
		}
	}

	// A link to a walkthrough or a step that does not exist is an error
	// at the link, with suggestions.
	bad := fm + "\n## First step\n\nSee [c](bb.md) and [the watch](b.md#step-1-watchin).\n"
	fsys["a.md"] = &fstest.MapFile{Data: []byte(bad)}
	errs := Check(fsys, ".", opts)
	var msgs []string
	for _, e := range errs {
		var we *Error
		if !errors.As(e, &we) {
			t.Fatalf("not an *Error: %v", e)
		}
		msgs = append(msgs, e.Error())
	}
	want := []string{
		`a.md:8:5: link to bb.md: no walkthrough "bb" (did you mean b, a?)`,
		`a.md:8:20: link to b.md#step-1-watchin: walkthrough b has no step #step-1-watchin (did you mean step-1-watching?)`,
	}
	if strings.Join(msgs, "\n") != strings.Join(want, "\n") {
		t.Errorf("Check:\n%s\nwant:\n%s", strings.Join(msgs, "\n"), strings.Join(want, "\n"))
	}
}

// A user's walkthroughs link to the built-in ones: Targets of the other
// directory, given as Also.
func TestWalkthroughLinksAlso(t *testing.T) {
	builtin := fstest.MapFS{"deployment.md": {Data: []byte(fm + "\n## Create\n\nx\n")}}
	also, err := Targets(builtin, ".")
	if err != nil {
		t.Fatal(err)
	}
	if got := also["deployment"]; len(got) != 1 || got[0] != "step-1-create" {
		t.Fatalf("Targets = %v", also)
	}
	user := fstest.MapFS{"mine.md": {Data: []byte(fm + "\n## Mine\n\n[d](deployment.md#step-1-create) [bad](deployment.md#step-9)\n")}}
	opts := testOptions(&fakeresolver.Resolver{Found: &fact.Facts{}})
	opts.Also = also
	errs := Check(user, ".", opts)
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "walkthrough deployment has no step #step-9") {
		t.Errorf("Check with Also: %v", errs)
	}
	opts.Also = nil
	if errs := Check(user, ".", opts); len(errs) != 2 {
		t.Errorf("Check without Also: %v, want both links reported", errs)
	}
}
