package explain

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"unicode/utf8"
)

// maxLine bounds the text kept of one input line in a Record, so a huge
// single-line JSON value does not get echoed in full in a table.
const maxLine = 4096

// maxInputLine bounds what is read of one input line: the rest of a longer
// line is skipped as it is read, never held, so input with no newline
// (`kubewalk explain /dev/zero`) is read in bounded memory. An audit line
// holds at most a request and a response object, each no larger than
// etcd's request limit; the bound keeps every real line whole. A variable
// for the tests.
var maxInputLine = 4 << 20

// Parse reads input in whatever form it comes, detected per input:
//
//   - JSON (the first non-space byte is '{' or '['): a stream of JSON
//     values — a v1 EventList, single events, audit events, or arrays of
//     them. When the stream is not valid JSON throughout (JSON lines mixed
//     with text, a truncated value), the input is read line by line
//     instead, each '{' line decoded on its own;
//   - otherwise line by line: a JSON line is decoded (audit or event),
//     "key: value" blocks of audit fields are gathered into one record
//     (CloudWatch Insights output), and every other line is read as a
//     `kubectl get events` table row, using the latest header seen (any
//     column layout) or, for --watch lines without a header, the shape of
//     the row itself.
//
// Parse never fails and never panics; lines it cannot read become Records
// of KindUnknown.
func Parse(input []byte) []Record {
	input = clipLines(input)
	trim := bytes.TrimLeft(input, " \t\r\n\ufeff")
	if len(trim) > 0 && (trim[0] == '{' || trim[0] == '[') {
		if recs, ok := parseJSONStream(input); ok {
			return recs
		}
	}
	return parseLines(input)
}

// ParseEvents reads `kubectl get events` table output only (any layout);
// JSON and audit detection are left out. Lines that are not event rows are
// KindUnknown records.
func ParseEvents(input []byte) []Record {
	var p tableParser
	var out []Record
	forLines(input, func(n int, line string) {
		if r, ok := p.line(n, line); ok {
			out = append(out, r)
		}
	})
	return out
}

// ParseAudit reads audit records only: JSON lines (or a JSON stream) of
// audit.k8s.io/v1 Events, or "key: value" field blocks. Other lines are
// KindUnknown records.
func ParseAudit(input []byte) []Record {
	var out []Record
	var kv kvBlock
	flush := func() {
		for {
			r, ok := kv.record()
			if !ok {
				break
			}
			out = append(out, r)
		}
	}
	forLines(input, func(n int, line string) {
		t := strings.TrimSpace(line)
		if kv.add(n, t) {
			return
		}
		flush()
		switch {
		case t == "":
		case t[0] == '{':
			for _, r := range decodeLine(n, t) {
				if r.Kind == KindEvent {
					r = unknown(n, r.Text) // an event is not an audit record
				}
				out = append(out, r)
			}
		default:
			out = append(out, unknown(n, t))
		}
	})
	flush()
	return out
}

// parseLines is the line-by-line reader behind Parse.
func parseLines(input []byte) []Record {
	var (
		out []Record
		p   lineParser
	)
	add := func(r Record) { out = append(out, r) }
	forLines(input, func(n int, line string) { p.line(n, line, add) })
	p.flush(add)
	return out
}

// lineParser is the state of the line-by-line reader: the latest table
// header and the audit field block being gathered. Parse and Stream feed
// it the same lines and get the same records.
type lineParser struct {
	table tableParser
	kv    kvBlock
}

// line reads line n and passes emit the records it completes: none, or
// the audit block it ends and its own.
func (p *lineParser) line(n int, line string, emit func(Record)) {
	t := strings.TrimSpace(line)
	if p.kv.add(n, t) {
		return
	}
	p.flush(emit)
	if t != "" && t[0] == '{' {
		for _, r := range decodeLine(n, t) {
			emit(r)
		}
		return
	}
	if r, ok := p.table.line(n, line); ok {
		emit(r)
	}
}

// flush passes emit the records of the audit field block gathered so far.
func (p *lineParser) flush(emit func(Record)) {
	for {
		r, ok := p.kv.record()
		if !ok {
			return
		}
		emit(r)
	}
}

// forLines calls f with each line (1-based number, without the newline and
// a trailing \r). Invalid UTF-8 is replaced so records always marshal.
func forLines(input []byte, f func(n int, line string)) {
	n := 0
	for len(input) > 0 {
		n++
		i := bytes.IndexByte(input, '\n')
		var line []byte
		if i < 0 {
			line, input = input, nil
		} else {
			line, input = input[:i], input[i+1:]
		}
		if len(line) > maxInputLine {
			line = line[:maxInputLine]
		}
		f(n, lineText(line))
	}
}

// clipLines returns input with every line over maxInputLine cut to it, as
// Stream reads it; input itself when no line is over.
func clipLines(input []byte) []byte {
	var out []byte
	for rest, done := input, 0; len(rest) > 0; {
		line, after, found := bytes.Cut(rest, []byte("\n"))
		if len(line) > maxInputLine {
			if out == nil {
				out = append(out, input[:done]...)
			}
			out = append(out, line[:maxInputLine]...)
		} else if out != nil {
			out = append(out, line...)
		}
		done += len(line)
		if found {
			done++
			if out != nil {
				out = append(out, '\n')
			}
		}
		rest = after
	}
	if out == nil {
		return input
	}
	return out
}

// lineText is a line as the parsers read it: without a trailing \r, and
// with invalid UTF-8 replaced so records always marshal.
func lineText(line []byte) string {
	s := string(bytes.TrimSuffix(line, []byte("\r")))
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return s
}

func unknown(n int, text string) Record {
	return Record{Line: n, Text: clip(text), Kind: KindUnknown}
}

func clip(s string) string {
	if len(s) <= maxLine {
		return s
	}
	s = s[:maxLine]
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s + "…"
}

// decodeLine decodes one JSON line: an audit event, a core or events.k8s.io
// event, or a list of either (`kubectl get events -o json | jq -c .`): its
// items become one record each, all on this line.
func decodeLine(n int, text string) []Record {
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		return []Record{unknown(n, text)}
	}
	recs := fromJSON(n, text, v)
	if len(recs) == 0 {
		return []Record{unknown(n, text)}
	}
	return recs
}

// parseJSONStream decodes input as a sequence of JSON values; ok is false
// when any of it is not JSON. Numbers decode as float64, as in decodeLine,
// so a value reads the same in a stream and on a line of its own (a
// number too large for a float64 is an error in both).
func parseJSONStream(input []byte) (out []Record, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(input))
	for {
		// The value starts at the first non-space byte after the previous one.
		start := int(dec.InputOffset())
		for start < len(input) && strings.IndexByte(" \t\r\n", input[start]) >= 0 {
			start++
		}
		var v any
		err := dec.Decode(&v)
		if err == io.EOF {
			return out, true
		}
		if err != nil {
			return nil, false
		}
		n := bytes.Count(input[:start], []byte("\n")) + 1
		out = append(out, valueRecords(n, input[start:], v)...)
	}
}

// valueRecords are the records of JSON value v, which starts on line n at
// the start of rest (the input from there on): its first line is the
// records' Text.
func valueRecords(n int, rest []byte, v any) []Record {
	if end := bytes.IndexByte(rest, '\n'); end >= 0 {
		rest = rest[:end]
	}
	first := strings.ToValidUTF8(strings.TrimSpace(string(rest)), "\uFFFD")
	recs := fromJSON(n, first, v)
	if len(recs) == 0 {
		recs = []Record{unknown(n, first)}
	}
	return recs
}
