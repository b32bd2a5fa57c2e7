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
//
// Stream holds at most maxInputLine of a line and maxValue of JSON values
// not emitted yet, so input without end or newline is read in bounded
// memory: a longer line is read as its first maxInputLine bytes (as
// Parse reads it too) and the rest skipped as it arrives; a longer value
// is read line by line from its first line. Parse, which has its input in
// memory already, decodes a value of any size, and looks for JSON past any
// number of lines holding only byte order marks, where Stream stops
// looking after maxInputLine bytes of them.
func Stream(r io.Reader, emit func(Record) error) error {
	lr := &lineReader{br: bufio.NewReaderSize(r, 64<<10)}
	// Parse decides by the first byte that is not space or a byte order
	// mark. Blank lines before it have no records either way and are only
	// counted; lines holding a mark are kept, to be read again.
	n := 1
	var lead []byte
	for {
		line, err := lr.next()
		t := bytes.TrimLeft(line, " \t\r\n\ufeff")
		if len(t) > 0 && (t[0] == '{' || t[0] == '[') {
			return streamJSON(n, append(lead, line...), lr, emit)
		}
		switch {
		case len(t) > 0:
			lead = append(lead, line...)
		case len(lead) > 0 || bytes.ContainsRune(line, '\ufeff'):
			lead = append(lead, line...)
		case len(line) > 0:
			n++
		}
		// Marks without end are read as lines, like all the rest.
		if len(t) > 0 || len(lead) > maxInputLine || err != nil {
			if err != nil && err != io.EOF {
				return err
			}
			lr.pre = lead
			return streamLines(n, lr, emit)
		}
	}
}

// lineReader reads lines of at most maxInputLine bytes: the first
// maxInputLine bytes of a longer line are returned as soon as they are
// read, with a newline, and the rest is skipped on the next read, never
// held. Lines in pre, read already, come first.
type lineReader struct {
	br   *bufio.Reader
	pre  []byte
	skip bool // the rest of a clipped line is still to be skipped
}

// next returns the next line with its newline, as ReadBytes('\n') does:
// err is nil when the line ends in a newline, io.EOF at the end of the
// input.
func (lr *lineReader) next() ([]byte, error) {
	if len(lr.pre) > 0 {
		var line []byte
		i := bytes.IndexByte(lr.pre, '\n')
		if i < 0 {
			line, lr.pre = lr.pre, nil
		} else {
			line, lr.pre = lr.pre[:i+1], lr.pre[i+1:]
		}
		if i >= 0 {
			return line, nil
		}
		// pre ends in the middle of a line (a clipped line ends in a
		// newline): the rest of it follows in br.
		return lr.read(line)
	}
	if lr.skip {
		for {
			_, err := lr.br.ReadSlice('\n')
			if err == nil {
				break
			}
			if err != bufio.ErrBufferFull {
				return nil, err
			}
		}
		lr.skip = false
	}
	return lr.read(nil)
}

// read reads the rest of a line whose start is line.
func (lr *lineReader) read(line []byte) ([]byte, error) {
	for {
		frag, err := lr.br.ReadSlice('\n')
		body := frag
		if err == nil {
			body = frag[:len(frag)-1]
		}
		if len(line)+len(body) > maxInputLine {
			line = append(line, body[:maxInputLine-len(line)]...)
			lr.skip = err != nil
			return append(line, '\n'), nil
		}
		line = append(line, frag...)
		if err != bufio.ErrBufferFull {
			return line, err
		}
	}
}

// streamLines reads lr line by line, the first line numbered n, as
// parseLines does.
func streamLines(n int, lr *lineReader, emit func(Record) error) error {
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
		line, err := lr.next()
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
func streamJSON(n int, lead []byte, lr *lineReader, emit func(Record) error) error {
	in := &lineFeed{r: lr, buf: lead}
	dec := json.NewDecoder(in)
	line := n // the line in.buf[0] (offset in.base) starts
	var pending []Record
	for {
		prevEnd := max(int(dec.InputOffset()), in.base)
		var v any
		err := dec.Decode(&v)
		if err == io.EOF {
			return emitAll(pending, emit)
		}
		if err != nil {
			if in.err != nil && !errors.Is(in.err, io.EOF) && !errors.Is(in.err, errTooLong) {
				return in.err
			}
			lr.pre = in.buf
			return streamLines(line, lr, emit)
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

// maxValue bounds the input held for the JSON values not emitted yet: a
// value that has not closed by then (a `[` and no end) is read line by line
// from the start of its first line, as if it were not JSON. A variable for
// the tests.
var maxValue = 64 << 20

// errTooLong ends the JSON decoder's input at a value over maxValue: from
// there on the input is read line by line.
var errTooLong = errors.New("explain: line or value too long for JSON")

// lineFeed hands the JSON decoder the input a line at a time, so a value
// is decoded as soon as the line that closes it arrives and that line,
// which the records' Text may need, has arrived whole. It keeps what it
// handed out from offset base on.
type lineFeed struct {
	r    *lineReader
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
		// A clipped line is handed out clipped, as Parse reads it.
		line, err := f.r.next()
		f.buf = append(f.buf, line...)
		f.err = err
		if len(f.buf) > maxValue {
			// The decoder stops before this line: from here the input
			// is read line by line.
			f.err = errTooLong
			return 0, f.err
		}
		if len(line) == 0 {
			return 0, err
		}
	}
	n := copy(p, f.buf[f.out-f.base:])
	f.out += n
	return n, nil
}
