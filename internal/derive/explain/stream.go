package explain

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// Stream reads input from r as Parse does, and passes emit each record
// as soon as the input that completes it has arrived: a table row or a
// JSON line when its newline arrives, a JSON value written over several
// lines (`kubectl get events -o json --watch`) when it closes, an audit
// field block when the line after it arrives. So `kubectl get events
// --watch | kubewalk explain` explains each event as kubectl prints it.
// Stream returns emit's first error, or r's; io.EOF ends the input.
//
// Over the same input Stream gives Parse's records, with one difference
// that cannot be helped: Parse reads input that starts like JSON but is
// not JSON throughout (JSON values and then text) line by line from the
// start, because it sees the whole input first. Stream has emitted the
// values on the lines before the text by the time it arrives, and reads
// line by line from there. Where those values are one a line (JSON lines,
// audit logs), that is the same thing.
func Stream(r io.Reader, emit func(Record) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	// Parse decides by the first byte that is not space or a byte order
	// mark; what comes before it is kept, to be read again either way.
	var lead []byte
	for {
		c, _, err := br.ReadRune()
		if err == io.EOF {
			break // blank lines have no records, a lone mark one
		}
		if err != nil {
			return err
		}
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' && c != '\ufeff' {
			if err := br.UnreadRune(); err != nil {
				return err
			}
			if c == '{' || c == '[' {
				return streamJSON(lead, br, emit)
			}
			break
		}
		lead = append(lead, string(c)...)
	}
	return streamLines(1, io.MultiReader(bytes.NewReader(lead), br), emit)
}

// streamLines reads r line by line, the first line numbered n, as
// parseLines does.
func streamLines(n int, r io.Reader, emit func(Record) error) error {
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReaderSize(r, 64<<10)
	}
	var (
		p    lineParser
		eerr error
	)
	add := func(rec Record) {
		if eerr == nil {
			eerr = emit(rec)
		}
	}
	for ; ; n++ {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			p.line(n, lineText(bytes.TrimSuffix(line, []byte("\n"))), add)
			if eerr != nil {
				return eerr
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	p.flush(add)
	return eerr
}

// streamJSON decodes a stream of JSON values as parseJSONStream does. A
// value's records are emitted when the rest of the line it ends on is
// blank: then no text on that line can turn out not to be JSON. When the
// stream stops being JSON, the input is read line by line from the start
// of the first line not emitted yet, as Parse would read it.
func streamJSON(lead []byte, br *bufio.Reader, emit func(Record) error) error {
	in := &lineFeed{r: br, buf: lead}
	dec := json.NewDecoder(in)
	line := 1 // the line in.buf[0] (offset in.base) starts
	var pending []Record
	for {
		prevEnd := max(int(dec.InputOffset()), in.base)
		var v any
		err := dec.Decode(&v)
		if err == io.EOF {
			return emitAll(pending, emit)
		}
		if err != nil {
			if in.err != nil && !errors.Is(in.err, io.EOF) {
				return in.err
			}
			return streamLines(line, io.MultiReader(bytes.NewReader(in.buf), br), emit)
		}
		b := in.buf[prevEnd-in.base:]
		start := prevEnd - in.base + len(b) - len(bytes.TrimLeft(b, " \t\r\n"))
		n := line + bytes.Count(in.buf[:start], []byte("\n"))
		pending = append(pending, valueRecords(n, in.buf[start:], v)...)
		// The rest of the line the value ends on (lineFeed reads whole
		// lines: all of it is in buf).
		end := int(dec.InputOffset()) - in.base
		tail := in.buf[end:]
		if i := bytes.IndexByte(tail, '\n'); i >= 0 {
			tail = tail[:i+1]
		}
		if len(bytes.TrimSpace(tail)) > 0 {
			continue // another value, or text, on the same line
		}
		if err := emitAll(pending, emit); err != nil {
			return err
		}
		pending = pending[:0]
		done := end + len(tail)
		line += bytes.Count(in.buf[:done], []byte("\n"))
		in.buf = in.buf[done:]
		in.base += done
		// The decoder may not have been handed all of the blank tail:
		// it would only have skipped it.
		in.out = max(in.out, in.base)
	}
}

func emitAll(recs []Record, emit func(Record) error) error {
	for _, r := range recs {
		if err := emit(r); err != nil {
			return err
		}
	}
	return nil
}

// lineFeed hands the JSON decoder the input a line at a time, so a value
// is decoded as soon as the line that closes it arrives and that line,
// which the records' Text may need, has arrived whole. It keeps what it
// handed out from offset base on.
type lineFeed struct {
	r    *bufio.Reader
	buf  []byte // input from offset base on, as read
	base int
	out  int // offset of the next byte to hand out
	err  error
}

func (f *lineFeed) Read(p []byte) (int, error) {
	if f.out == f.base+len(f.buf) {
		if f.err != nil {
			return 0, f.err
		}
		line, err := f.r.ReadBytes('\n')
		f.buf = append(f.buf, line...)
		f.err = err
		if len(line) == 0 {
			return 0, err
		}
	}
	n := copy(p, f.buf[f.out-f.base:])
	f.out += n
	return n, nil
}
