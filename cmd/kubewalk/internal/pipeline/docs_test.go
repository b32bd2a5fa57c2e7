package pipeline

import (
	"errors"
	"strconv"
	"testing"
	"testing/fstest"

	"github.com/kubewalk/kubewalk/walkthrough"
)

// The memo loads a set again only when a file of it changed, appeared or
// went, or when the last load failed.
func TestDocsMemo(t *testing.T) {
	fsys := fstest.MapFS{"w/a.md": {Data: []byte("a")}, "w/b.ko.md": {Data: []byte("b")}, "w/sub/c.md": {Data: []byte("c")}}
	set := WalkSet{Name: "user", FS: fsys, Dir: "w"}
	memo := NewDocsMemo()
	loads := 0
	var fail error
	load := func() ([]*walkthrough.Doc, error) {
		loads++
		return []*walkthrough.Doc{{ID: strconv.Itoa(loads)}}, fail
	}
	step := func(what string, wantLoads int, wantID string) {
		t.Helper()
		docs, err := memo.load(set, "en", nil, load)
		if loads != wantLoads || (err == nil && docs[0].ID != wantID) {
			t.Errorf("%s: %d loads, docs %s; want %d loads, docs %s", what, loads, docs[0].ID, wantLoads, wantID)
		}
	}
	step("first", 1, "1")
	step("unchanged", 1, "1")
	fsys["w/sub/c.md"] = &fstest.MapFile{Data: []byte("c2")}
	step("a subdirectory changed (Load does not read it)", 1, "1")
	fsys["w/a.md"] = &fstest.MapFile{Data: []byte("a2")}
	step("a file changed", 2, "2")
	fsys["w/b.md"] = &fstest.MapFile{Data: []byte("")}
	step("a file appeared", 3, "3")
	delete(fsys, "w/b.ko.md")
	step("a file went", 4, "4")
	fail = errors.New("broken")
	fsys["w/a.md"] = &fstest.MapFile{Data: []byte("a3")}
	step("a broken file", 5, "")
	fail = nil
	step("the same file, loading now", 6, "6")
	if _, err := memo.load(set, "ko", nil, load); err != nil || loads != 7 {
		t.Errorf("another language: %d loads", loads)
	}
	// The set's links are checked against the other sets' walkthroughs:
	// when those change, the set loads again.
	also := walkthrough.LinkTargets{"deployment": {"step-1-create"}}
	if _, err := memo.load(set, "ko", also, load); err != nil || loads != 8 {
		t.Errorf("other walkthroughs changed: %d loads", loads)
	}
	if _, err := memo.load(set, "ko", walkthrough.LinkTargets{"deployment": {"step-1-create"}}, load); err != nil || loads != 8 {
		t.Errorf("the same other walkthroughs: %d loads", loads)
	}
}
