package explain

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// endless hands out fill without end (as /dev/zero does) until stop bytes
// are read, then fails with errStopped; n counts what it handed out.
type endless struct {
	fill byte
	n    int
	stop int
}

var errStopped = errors.New("stopped")

func (e *endless) Read(p []byte) (int, error) {
	if e.n >= e.stop {
		return 0, errStopped
	}
	p = p[:min(len(p), e.stop-e.n)]
	for i := range p {
		p[i] = e.fill
	}
	e.n += len(p)
	return len(p), nil
}

// TestStreamLineWithoutEnd: input with no newline gives its first line's
// record once maxInputLine bytes have arrived, and is read on, in pieces,
// until it ends, never held whole (/dev/zero would fill memory).
func TestStreamLineWithoutEnd(t *testing.T) {
	for _, fill := range []byte{0, 'x', ' ', '{'} {
		in := &endless{fill: fill, stop: 3 * maxInputLine}
		var recs []Record
		readAtFirst := -1
		err := Stream(in, func(r Record) error {
			if readAtFirst < 0 {
				readAtFirst = in.n
			}
			recs = append(recs, r)
			return nil
		})
		if !errors.Is(err, errStopped) {
			t.Errorf("fill %q: Stream = %v, want the reader's error", fill, err)
		}
		if fill == ' ' {
			if len(recs) != 0 {
				t.Errorf("fill %q: %d records of a blank line", fill, len(recs))
			}
			continue
		}
		if len(recs) != 1 || recs[0].Line != 1 || recs[0].Kind != KindUnknown || len(recs[0].Text) > maxLine+len("…") {
			t.Fatalf("fill %q: records %+v, want one unknown line 1, clipped", fill, recs)
		}
		// At most one buffer of the reader (bufio.NewReaderSize in Stream) past the line.
		if readAtFirst > maxInputLine+64<<10 {
			t.Errorf("fill %q: first record after %d bytes, want at most %d", fill, readAtFirst, maxInputLine+64<<10)
		}
	}
}

// TestStreamLongLines: a line over maxInputLine is read as its first
// maxInputLine bytes, in text and JSON, and the lines after it as ever;
// Parse reads it the same.
func TestStreamLongLines(t *testing.T) {
	long := strings.Repeat("y", maxInputLine+100_000)
	row := "0s   Normal   Killing   pod/nginx-1   Stopping container nginx\n"
	event := `{"kind":"Event","reason":"Killing","message":"m"}` + "\n"
	for name, in := range map[string]string{
		"text":              long + "\n" + row,
		"text at end":       row + long,
		"json":              `{"kind":"Event","reason":"Pulled","message":"` + long + `"}` + "\n" + event,
		"json then text":    event + `{"kind":"Event","message":"` + long + "\n" + row,
		"exactly the limit": strings.Repeat("z", maxInputLine) + "\n" + row,
	} {
		t.Run(name, func(t *testing.T) {
			got := streamAll(t, []byte(in))
			if diff := cmp.Diff(Parse([]byte(in)), got); diff != "" && !jsonFallback([]byte(in)) {
				t.Errorf("(-Parse +Stream):\n%s", diff)
			}
			var events []string
			for _, r := range got {
				if len(r.Text) > maxLine+len("…") {
					t.Errorf("line %d: text of %d bytes", r.Line, len(r.Text))
				}
				if r.Kind == KindEvent {
					events = append(events, r.Event.Reason)
				}
			}
			if len(events) == 0 || events[len(events)-1] != "Killing" {
				t.Errorf("events %q, want the line after the long one read (Killing)", events)
			}
		})
	}
}

// TestStreamValueWithoutEnd: a JSON value that never closes is held up to
// maxValue, then read line by line.
func TestStreamValueWithoutEnd(t *testing.T) {
	defer func(v int) { maxValue = v }(maxValue)
	maxValue = 1 << 20
	r := io.MultiReader(strings.NewReader("[\n"), &endless{fill: '\n', stop: 4 * maxValue})
	lines := 0
	err := Stream(r, func(Record) error { lines++; return nil })
	if !errors.Is(err, errStopped) {
		t.Fatalf("Stream = %v, want the reader's error", err)
	}
	if lines != 1 {
		t.Errorf("%d records, want the one of line 1", lines)
	}
}

// TestStreamIsParseClipped: with lines clipped at a few bytes, most lines
// of the corpus are over the limit, and Stream still gives Parse's
// records, whole and a byte at a time (the clip falls inside the reader's
// buffer and across its reads).
func TestStreamIsParseClipped(t *testing.T) {
	defer func(n int) { maxInputLine = n }(maxInputLine)
	files, err := filepath.Glob("testdata/corpus/*")
	if err != nil || len(files) == 0 {
		t.Fatal(files, err)
	}
	for _, limit := range []int{1, 7, 40, 100} {
		maxInputLine = limit
		for _, f := range files {
			in, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if jsonFallback(in) {
				continue
			}
			want := Parse(in)
			if diff := cmp.Diff(want, streamAll(t, in)); diff != "" {
				t.Errorf("%s, lines of %d bytes: (-Parse +Stream):\n%s", filepath.Base(f), limit, diff)
			}
			var got []Record
			if err := Stream(iotestOneByte{bytes.NewReader(in)}, func(r Record) error { got = append(got, r); return nil }); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s, lines of %d bytes, a byte at a time: (-Parse +Stream):\n%s", filepath.Base(f), limit, diff)
			}
		}
	}
}
