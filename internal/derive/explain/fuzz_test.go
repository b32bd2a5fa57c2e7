package explain

import (
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// checkRecords is what every parser promises whatever the input: no
// panic, lines in order and in range, every record marshals, and text is
// valid UTF-8.
func checkRecords(t *testing.T, in []byte, recs []Record) {
	lines := 1
	for _, b := range in {
		if b == '\n' {
			lines++
		}
	}
	prev := 0
	for _, r := range recs {
		if r.Line < 1 || r.Line > lines || r.Line < prev {
			t.Fatalf("record line %d (previous %d, input has %d lines)", r.Line, prev, lines)
		}
		prev = r.Line
		switch r.Kind {
		case KindEvent:
			if r.Event == nil {
				t.Fatal("event record without event")
			}
		case KindAudit:
			if r.Audit == nil {
				t.Fatal("audit record without audit")
			}
		case KindUnknown:
		default:
			t.Fatalf("kind %q", r.Kind)
		}
		if !utf8.ValidString(r.Text) {
			t.Fatalf("invalid UTF-8 text %q", r.Text)
		}
		if _, err := json.Marshal(r); err != nil {
			t.Fatal(err)
		}
	}
	// Explaining never panics either, with or without facts.
	newFixture().Explain(recs)
	New(nil, nil, Options{}).Explain(recs)
}

func FuzzParseEvents(f *testing.F) {
	for _, name := range []string{"seed000-watch.txt", "events-list.json"} {
		b, err := readFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("LAST SEEN   TYPE     REASON    OBJECT        MESSAGE\n0s          Normal   Killing   pod/nginx-1   Stopping container nginx\n"))
	f.Add([]byte("default   0s   Warning   BackOff   pod/x   Back-off restarting failed container\n"))
	f.Add([]byte("0s    Normal   Pulling   pod/a   spec.containers{nginx}   kubelet, node-1   Pulling image \"nginx\"   0s    1     a.17cb4a1f0b\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		checkRecords(t, in, Parse(in))
		checkRecords(t, in, ParseEvents(in))
	})
}

func FuzzParseAudit(f *testing.F) {
	for _, name := range []string{"audit.jsonl", "audit-fields.txt"} {
		b, err := readFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"verb":"create","requestURI":"/api/v1/namespaces/a/pods/b/binding"}`))
	f.Add([]byte(`{"verb":"get","requestURI":"/apis"}` + "\n" + `{"verb":"list","objectRef":"x"}`))
	f.Add([]byte("verb: create\nverb: delete\nrequestURI: /api/v1/namespaces\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		checkRecords(t, in, Parse(in))
		checkRecords(t, in, ParseAudit(in))
	})
}
