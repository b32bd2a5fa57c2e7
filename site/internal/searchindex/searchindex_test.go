package searchindex

import (
	"bytes"
	"testing"
)

// TestClone: moving a clone's URLs, as a site of several releases moves
// a release's to the pages they share, leaves the index it was cloned
// from as it was, and the clone writes the same script until it is
// changed.
func TestClone(t *testing.T) {
	d := Build([]Entry{{Kind: "event", Title: "BackOff", URL: "events.html#e-BackOff", Body: "back-off restarting"}}, IndexHead)
	before, err := Script(d)
	if err != nil {
		t.Fatal(err)
	}
	c := d.Clone()
	if js, err := Script(c); err != nil || !bytes.Equal(js, before) {
		t.Fatalf("the clone writes %s (%v), want %s", js, err, before)
	}
	c.Docs[0][2] = "../../en/events.html?rel=v1#e-BackOff"
	after, err := Script(d)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(after, before) {
		t.Errorf("changing the clone changed the index:\n%s\nwas\n%s", after, before)
	}
}
