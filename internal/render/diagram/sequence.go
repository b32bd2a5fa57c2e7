package diagram

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Message is one arrow of a sequence diagram.
type Message struct {
	// From and To name participants; equal for a self-message, drawn as a
	// loop.
	From, To string
	// Label is the arrow's text, wrapped to labelMax px.
	Label string
	// Href is where the message links, typically "#step-id"; "" (or an
	// unsafe URL) for no link.
	Href string
}

// ErrEmpty is returned for a diagram with nothing to draw.
var ErrEmpty = errors.New("diagram: nothing to draw")

// Sequence geometry, px. The values are arbitrary but chosen together:
// labels wrap at labelMax so a nine-participant walkthrough still fits a
// 1200px column, and rows are tall enough for the 16px line height.
const (
	margin       = 10
	headMax      = 150 // participant names wrap at this width
	headPadX     = 12
	headPadY     = 8
	labelMax     = 200
	labelPad     = 12 // free space each side of a label between lifelines
	colGap       = 24 // minimum space between participant boxes
	rowGap       = 12 // above each row's label
	arrowGap     = 6  // between a label's last baseline and its arrow
	selfLoopW    = 28
	selfLoopH    = 16
	arrowHead    = 7
	textAscent   = 10 // from the top of a text line to its baseline, roughly
	bottomMargin = 16
)

// Sequence draws a sequence diagram: participants as columns with
// lifelines, left to right in the order given, and one row per message, in
// order, each an arrow with its label linking to msg.Href.
//
// A sequence diagram is a grid — a column per participant, a row per
// message — so there is nothing for a graph layout library to decide: the
// only computation is how wide each column must be for the labels that
// cross it, done here from estimated text widths (textWidth).
func Sequence(participants []string, msgs []Message) ([]byte, error) {
	if len(participants) == 0 {
		return nil, ErrEmpty
	}
	col := make(map[string]int, len(participants))
	for i, p := range participants {
		if _, dup := col[p]; dup {
			return nil, fmt.Errorf("diagram: participant %q listed twice", p)
		}
		col[p] = i
	}
	type row struct {
		from, to int
		lines    []string
		width    int
		msg      Message
	}
	rows := make([]row, len(msgs))
	for i, m := range msgs {
		f, ok1 := col[m.From]
		t, ok2 := col[m.To]
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("diagram: message %d (%q) from %q to %q: not a participant", i+1, m.Label, m.From, m.To)
		}
		lines := wrap(m.Label, labelMax)
		rows[i] = row{f, t, lines, maxWidth(lines), m}
	}

	// Participant boxes.
	n := len(participants)
	heads := make([][]string, n)
	headW := make([]int, n)
	headLines := 1
	for i, p := range participants {
		heads[i] = wrap(p, headMax)
		headW[i] = maxWidth(heads[i]) + 2*headPadX
		headLines = max(headLines, len(heads[i]))
	}
	headH := headLines*lineHeight + 2*headPadY

	// gaps[i] is the distance between the centres of columns i and i+1.
	// Start from what the boxes need, then widen for each label, shortest
	// spans first so that a long span only takes what its inner gaps lack,
	// spreading the deficit evenly over the gaps it crosses.
	gaps := make([]int, max(n-1, 0))
	for i := range gaps {
		gaps[i] = (headW[i]+headW[i+1])/2 + colGap
	}
	rightExtra := 0 // room right of the last column for its self-messages
	order := make([]int, len(rows))
	for i := range order {
		order[i] = i
	}
	span := func(r row) int {
		if r.from == r.to {
			return 1
		}
		return max(r.from, r.to) - min(r.from, r.to)
	}
	sort.SliceStable(order, func(a, b int) bool { return span(rows[order[a]]) < span(rows[order[b]]) })
	for _, i := range order {
		r := rows[i]
		lo, hi := min(r.from, r.to), max(r.from, r.to)
		need := r.width + 2*labelPad
		if lo == hi {
			need = selfLoopW + 6 + r.width + labelPad
			if lo == n-1 {
				rightExtra = max(rightExtra, need)
				continue
			}
			hi = lo + 1
		}
		have := 0
		for g := lo; g < hi; g++ {
			have += gaps[g]
		}
		if deficit := need - have; deficit > 0 {
			k := hi - lo
			for g := lo; g < hi; g++ {
				gaps[g] += deficit / k
			}
			gaps[hi-1] += deficit % k
		}
	}

	xs := make([]int, n)
	xs[0] = margin + headW[0]/2
	for i := 1; i < n; i++ {
		xs[i] = xs[i-1] + gaps[i-1]
	}
	width := max(xs[n-1]+headW[n-1]/2, xs[n-1]+rightExtra) + margin

	// Rows: each row's label sits above its arrow.
	ys := make([]int, len(rows)) // arrow y
	y := margin + headH
	for i, r := range rows {
		y += rowGap + len(r.lines)*lineHeight + arrowGap
		ys[i] = y
		if r.from == r.to {
			y += selfLoopH
		}
	}
	height := y + bottomMargin

	var w svgWriter
	w.header(width, height, "Sequence diagram: "+strings.Join(participants, ", "))
	// Lifelines, then boxes over their tops.
	w.s(`<g stroke-opacity="0.45" stroke-dasharray="4 4">` + "\n")
	for _, x := range xs {
		w.s("<line").attrN("x1", x).attrN("y1", margin+headH).attrN("x2", x).attrN("y2", height-margin).s("/>\n")
	}
	w.s("</g>\n")
	for i, x := range xs {
		w.s(`<rect fill-opacity="0.07" stroke-opacity="0.6" rx="4"`).
			attrN("x", x-headW[i]/2).attrN("y", margin).attrN("width", headW[i]).attrN("height", headH).s("/>\n")
		top := margin + (headH-len(heads[i])*lineHeight)/2 + textAscent + 2
		w.textLines(x, top, "middle", heads[i])
	}
	top := margin + headH
	for i, r := range rows {
		linked := w.openLink(r.msg.Href)
		w.s("<g>")
		w.s("<title>").text(r.msg.Label).s("</title>\n")
		x1, x2, ay := xs[r.from], xs[r.to], ys[i]
		// A transparent band over the whole row makes it one click target.
		bottom := ay + 4
		if r.from == r.to {
			bottom = ay + selfLoopH + 4
		}
		w.s(`<rect fill="transparent" stroke="none"`).attrN("x", 0).attrN("y", top).attrN("width", width).attrN("height", bottom-top).s("/>\n")
		top = bottom
		labelTop := ay - arrowGap - (len(r.lines)-1)*lineHeight - 4
		if r.from == r.to {
			w.s(`<path fill="none"`).attr("d", fmt.Sprintf("M%d %dh%dv%dh%d", x1, ay, selfLoopW, selfLoopH, -(selfLoopW-arrowHead))).s("/>\n")
			arrow(&w, x1, ay+selfLoopH, -1)
			w.textLines(x1+selfLoopW+6, labelTop, "start", r.lines)
		} else {
			dir := 1
			if x2 < x1 {
				dir = -1
			}
			w.s("<line").attrN("x1", x1).attrN("y1", ay).attrN("x2", x2-dir*arrowHead).attrN("y2", ay).s("/>\n")
			arrow(&w, x2, ay, dir)
			w.textLines((x1+x2)/2, labelTop, "middle", r.lines)
		}
		w.s("</g>")
		if linked {
			w.s("</a>")
		}
		w.s("\n")
	}
	w.s("</svg>\n")
	return w.Bytes(), nil
}

// arrow draws an arrowhead with its tip at (x, y) pointing right (dir 1)
// or left (dir -1).
func arrow(w *svgWriter, x, y, dir int) {
	b := x - dir*arrowHead
	w.s(`<path stroke="none"`).attr("d", fmt.Sprintf("M%d %dL%d %dL%d %dZ", x, y, b, y-4, b, y+4)).s("/>\n")
}
