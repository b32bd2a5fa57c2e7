package explain

import (
	"regexp"
	"strings"
	"unicode"
)

// kubectl prints events through a tabwriter (minimum cell width 10,
// padding 3, cell widths counted in runes), so in a table printed at once
// every row lines up with the header and columns are separated by at least
// three spaces. With --watch each row is flushed on its own: its columns
// are as wide as its own cells, the header (when printed at all) does not
// line up with later rows, and a row is read from its shape instead — an
// event type (Normal or Warning) followed by a reason and an object.

// Column names kubectl has used for events, across releases:
//
//	LAST SEEN   TYPE   REASON   OBJECT   MESSAGE                               (1.14+)
//	NAMESPACE   LAST SEEN   TYPE   REASON   OBJECT   MESSAGE                   (-A)
//	LAST SEEN   TYPE   REASON   OBJECT   SUBOBJECT   SOURCE   MESSAGE   FIRST SEEN   COUNT   NAME   (-o wide)
//	LAST SEEN   FIRST SEEN   COUNT   NAME   KIND   SUBOBJECT   TYPE   REASON   SOURCE   MESSAGE   (before 1.14)
var knownColumns = map[string]bool{
	"NAMESPACE": true, "LAST SEEN": true, "FIRST SEEN": true, "COUNT": true, "NAME": true,
	"KIND": true, "SUBOBJECT": true, "TYPE": true, "REASON": true, "OBJECT": true,
	"SOURCE": true, "MESSAGE": true,
}

var (
	wideSep = regexp.MustCompile(`\s{2,}`)
	ageRe   = regexp.MustCompile(`^(?:(?:\d+[smhdy])+|<unknown>|<invalid>|\d+)$`)
	// The tail kubectl -o wide prints after the message, for --watch rows
	// read without a header: FIRST SEEN, COUNT, NAME (the event's name,
	// "<object>.<hex>").
	wideTail  = regexp.MustCompile(`\s{2,}(\S+)\s{2,}(\d+)\s{2,}(\S+\.[0-9a-f]+)\s*$`)
	subobject = regexp.MustCompile(`^(?:spec|status|metadata)\.|\{`)
	component = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]*(?:, \S+)?$`)
)

type column struct {
	name  string
	start int // rune offset in the header line
}

type tableParser struct {
	header []column
}

// line reads one input line: a header (ok false: no record), a blank line
// (ok false), an event row, or an unknown line.
func (p *tableParser) line(n int, line string) (Record, bool) {
	t := strings.TrimSpace(line)
	if t == "" {
		return Record{}, false
	}
	if h := parseHeader(line); h != nil {
		p.header = h
		return Record{}, false
	}
	if p.header != nil {
		if e, ok := p.positional([]rune(line)); ok {
			return Record{Line: n, Text: clip(t), Kind: KindEvent, Format: "table", Event: e}, true
		}
	}
	if e, ok := shapeRow(line); ok {
		return Record{Line: n, Text: clip(t), Kind: KindEvent, Format: "table", Event: e}, true
	}
	return unknown(n, t), true
}

// parseHeader returns the columns of an events table header, or nil when
// line is not one: every cell a known column name, REASON among them.
func parseHeader(line string) []column {
	rs := []rune(line)
	var cols []column
	hasReason := false
	i := 0
	for i < len(rs) {
		for i < len(rs) && unicode.IsSpace(rs[i]) {
			i++
		}
		if i >= len(rs) {
			break
		}
		start := i
		// A cell ends at two spaces (names hold single spaces: LAST SEEN).
		for i < len(rs) && !(unicode.IsSpace(rs[i]) && (i+1 >= len(rs) || unicode.IsSpace(rs[i+1]))) {
			i++
		}
		name := strings.TrimSpace(string(rs[start:i]))
		if !knownColumns[name] {
			return nil
		}
		hasReason = hasReason || name == "REASON"
		cols = append(cols, column{name, start})
	}
	if !hasReason {
		return nil
	}
	return cols
}

// positional reads a row aligned with the header. ok is false when the row
// does not line up (a --watch row printed after the header).
func (p *tableParser) positional(rs []rune) (*EventRecord, bool) {
	cols := p.header
	vals := map[string]string{}
	for i, c := range cols {
		if c.start > len(rs) {
			vals[c.name] = ""
			continue
		}
		if c.start > 0 && !unicode.IsSpace(rs[c.start-1]) {
			return nil, false // a cell runs across the column boundary
		}
		end := len(rs)
		if i+1 < len(cols) && cols[i+1].start < end {
			end = cols[i+1].start
		}
		vals[c.name] = strings.TrimSpace(string(rs[c.start:end]))
	}
	e := &EventRecord{
		Namespace: vals["NAMESPACE"],
		Type:      vals["TYPE"],
		Reason:    vals["REASON"],
		Message:   vals["MESSAGE"],
	}
	if e.Reason == "" || strings.ContainsAny(e.Reason, " \t") {
		return nil, false
	}
	if _, ok := vals["TYPE"]; ok && !isType(e.Type) {
		return nil, false
	}
	if obj, ok := vals["OBJECT"]; ok {
		if strings.ContainsAny(obj, " \t") {
			return nil, false
		}
		e.Kind, e.Name = splitObject(obj)
	} else {
		e.Kind, e.Name = strings.ToLower(vals["KIND"]), vals["NAME"]
	}
	e.Component, e.Host = splitSource(vals["SOURCE"])
	return e, true
}

func isType(s string) bool { return s == "Normal" || s == "Warning" }

// splitObject splits kubectl's "kind/name" ("replicaset/nginx-x").
func splitObject(obj string) (kind, name string) {
	if k, n, ok := strings.Cut(obj, "/"); ok {
		return strings.ToLower(k), n
	}
	return "", obj
}

// splitSource splits the SOURCE column, "kubelet, docker-desktop".
func splitSource(s string) (comp, host string) {
	c, h, _ := strings.Cut(s, ",")
	return strings.TrimSpace(c), strings.TrimSpace(h)
}

type token struct {
	s          string
	start, end int // byte offsets
}

func tokens(line string) []token {
	var out []token
	i := 0
	for i < len(line) {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		if i >= len(line) {
			break
		}
		j := i
		for j < len(line) && line[j] != ' ' && line[j] != '\t' {
			j++
		}
		out = append(out, token{line[i:j], i, j})
		i = j
	}
	return out
}

// shapeRow reads a row without a usable header: [NAMESPACE] LAST-SEEN TYPE
// REASON OBJECT MESSAGE…, optionally with -o wide's SUBOBJECT, SOURCE and
// trailing FIRST SEEN, COUNT, NAME.
func shapeRow(line string) (*EventRecord, bool) {
	toks := tokens(line)
	ti := -1
	for i := 0; i < len(toks) && i < 4; i++ {
		if isType(toks[i].s) {
			ti = i
			break
		}
	}
	if ti < 0 || ti+1 >= len(toks) {
		return nil, false
	}
	pre := toks[:ti]
	// Before the type: LAST SEEN, and NAMESPACE first with -A.
	if len(pre) == 0 || !ageRe.MatchString(pre[len(pre)-1].s) {
		return nil, false
	}
	e := &EventRecord{Type: toks[ti].s, Reason: toks[ti+1].s}
	if len(pre) == 2 {
		e.Namespace = pre[0].s
	} else if len(pre) > 2 {
		return nil, false
	}
	if ti+2 >= len(toks) {
		return e, true
	}
	obj := toks[ti+2]
	e.Kind, e.Name = splitObject(obj.s)
	rest := line[obj.end:]
	if m := wideTail.FindStringSubmatchIndex(rest); m != nil && ageRe.MatchString(rest[m[2]:m[3]]) {
		rest = rest[:m[0]]
		// -o wide: SUBOBJECT (often empty) and SOURCE come before the message.
		parts := wideSep.Split(strings.TrimSpace(rest), 3)
		if len(parts) > 1 && subobject.MatchString(parts[0]) {
			parts = parts[1:]
		}
		if len(parts) > 1 && component.MatchString(parts[0]) {
			e.Component, e.Host = splitSource(parts[0])
			parts = parts[1:]
		}
		rest = strings.Join(parts, "   ")
	}
	e.Message = strings.TrimSpace(rest)
	return e, true
}
