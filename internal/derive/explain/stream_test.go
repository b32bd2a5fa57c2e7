package explain

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// streamAll is Stream over the whole of in.
func streamAll(t testing.TB, in []byte) []Record {
	var out []Record
	if err := Stream(bytes.NewReader(in), func(r Record) error { out = append(out, r); return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

// jsonFallback reports whether Parse reads in as JSON at first and then,
// finding text, line by line from the start: the one case where Stream,
// which has emitted the values by then, answers otherwise.
func jsonFallback(in []byte) bool {
	trim := bytes.TrimLeft(in, " \t\r\n\ufeff")
	if len(trim) == 0 || (trim[0] != '{' && trim[0] != '[') {
		return false
	}
	_, ok := parseJSONStream(in)
	return !ok
}

// TestStreamIsParse: over every corpus input, whole and fed a byte at a
// time, Stream gives Parse's records.
func TestStreamIsParse(t *testing.T) {
	files, err := filepath.Glob("testdata/corpus/*")
	if err != nil || len(files) == 0 {
		t.Fatal(files, err)
	}
	extra := map[string]string{
		"blank":            "",
		"spaces":           " \n\t\n",
		"bom then json":    "\ufeff\n{\"kind\":\"Event\",\"reason\":\"Pulled\"}\n",
		"lead then json":   "\n\n  {\"kind\":\"Event\",\n\"reason\":\"Pulled\"}\n{\"verb\":\"get\"}",
		"truncated value":  "{\"kind\":\"Event\",\n\"reason\":",
		"kv block at end":  "x\nverb: create\nrequestURI: /api/v1/namespaces/a/pods\n",
		"no final newline": "LAST SEEN   TYPE     REASON    OBJECT        MESSAGE\n0s          Normal   Killing   pod/nginx-1   Stopping",
	}
	inputs := map[string][]byte{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs[filepath.Base(f)] = b
	}
	for name, s := range extra {
		inputs[name] = []byte(s)
	}
	for name, in := range inputs {
		if jsonFallback(in) {
			continue // TestStreamJSONThenText
		}
		want := Parse(in)
		if diff := cmp.Diff(want, streamAll(t, in)); diff != "" {
			t.Errorf("%s: Stream (-Parse +Stream):\n%s", name, diff)
		}
		var got []Record
		if err := Stream(iotestOneByte{bytes.NewReader(in)}, func(r Record) error { got = append(got, r); return nil }); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s, a byte at a time: (-Parse +Stream):\n%s", name, diff)
		}
	}
}

// iotestOneByte reads one byte per Read, as a slow pipe may.
type iotestOneByte struct{ r io.Reader }

func (o iotestOneByte) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	return o.r.Read(p[:1])
}

// TestStreamJSONThenText: JSON values, then text. The values are emitted
// as JSON, the text read line by line with the right line numbers.
func TestStreamJSONThenText(t *testing.T) {
	in := "{\"kind\":\"Event\",\n \"reason\":\"Pulled\",\"involvedObject\":{\"kind\":\"Pod\",\"name\":\"p\"}}\n" +
		"0s   Normal   Killing   pod/nginx-1   Stopping container nginx\n" +
		"junk\n"
	recs := streamAll(t, []byte(in))
	if len(recs) != 3 || recs[0].Format != "json" || recs[0].Line != 1 ||
		recs[1].Format != "table" || recs[1].Line != 3 || recs[2].Kind != KindUnknown || recs[2].Line != 4 {
		t.Errorf("%+v", recs)
	}
}

// TestStreamExplainsAsLinesArrive writes a watch into a pipe a line at a
// time and waits for each line's record before writing the next: a reader
// that waits for the end of the input (io.ReadAll, as explain once did)
// never gets there.
func TestStreamExplainsAsLinesArrive(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lines []string
	}{
		{"table", []string{
			"LAST SEEN   TYPE     REASON    OBJECT        MESSAGE\n",
			"0s          Normal   Killing   pod/nginx-1   Stopping container nginx\n",
			"0s          Normal   Pulled    pod/nginx-2   Pulled\n",
			"0s          Normal   Started   pod/nginx-2   Started\n",
		}},
		{"json watch", []string{
			"{\n  \"kind\": \"Event\",\n  \"reason\": \"Pulled\"\n}\n",
			"{\n  \"kind\": \"Event\",\n  \"reason\": \"Created\"\n}\n",
			"{\"kind\":\"Event\",\"reason\":\"Started\"}\n",
		}},
		{"audit lines", []string{
			`{"verb":"create","requestURI":"/api/v1/namespaces/a/pods"}` + "\n",
			`{"verb":"delete","requestURI":"/api/v1/namespaces/a/pods/b"}` + "\n",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pr, pw := io.Pipe()
			recs := make(chan Record)
			done := make(chan error, 1)
			go func() {
				done <- Stream(pr, func(r Record) error { recs <- r; return nil })
				close(recs)
			}()
			for i, l := range tc.lines {
				if _, err := io.WriteString(pw, l); err != nil {
					t.Fatal(err)
				}
				if i == 0 && strings.HasPrefix(l, "LAST SEEN") {
					continue // a header has no record
				}
				select {
				case r := <-recs:
					if r.Kind == KindUnknown {
						t.Errorf("line %d: %+v", i+1, r)
					}
				case <-time.After(5 * time.Second):
					t.Fatalf("no record for %q while the writer waits", l)
				}
			}
			pw.Close()
			for r := range recs {
				t.Errorf("record after the end: %+v", r)
			}
			if err := <-done; err != nil {
				t.Fatal(err)
			}
		})
	}
}

// FuzzStream holds Stream to Parse on any input Parse reads in one way
// from start to end.
func FuzzStream(f *testing.F) {
	for _, name := range []string{"seed000-watch.txt", "events-list.json", "audit-fields.txt", "events-watch-json.txt"} {
		b, err := readFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("\ufeff{\"a\":1}\n"))
	f.Add([]byte("[1,\n2] {\"kind\":\"Event\"}"))
	f.Fuzz(func(t *testing.T, in []byte) {
		got := streamAll(t, in)
		checkRecords(t, in, got)
		if !jsonFallback(in) {
			if diff := cmp.Diff(Parse(in), got); diff != "" {
				t.Errorf("(-Parse +Stream):\n%s", diff)
			}
		}
	})
}
