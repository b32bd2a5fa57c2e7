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
	rows, err := seqRows(participants, msgs)
	if err != nil {
		return nil, err
	}
	l := seqColumns(participants, rows)
	l.rowYs(rows)
	return l.draw(participants, rows), nil
}

// seqRow is a message placed between two columns.
type seqRow struct {
	from, to int
	lines    []string // the label, wrapped
	width    int      // of the widest line
	msg      Message
}

// span is how many gaps between columns r's label must fit in.
func (r seqRow) span() int {
	if r.from == r.to {
		return 1
	}
	return max(r.from, r.to) - min(r.from, r.to)
}

// seqRows checks the participants and gives each message its columns.
func seqRows(participants []string, msgs []Message) ([]seqRow, error) {
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
	rows := make([]seqRow, len(msgs))
	for i, m := range msgs {
		f, ok1 := col[m.From]
		t, ok2 := col[m.To]
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("diagram: message %d (%q) from %q to %q: not a participant", i+1, m.Label, m.From, m.To)
		}
		lines := wrap(m.Label, labelMax)
		rows[i] = seqRow{f, t, lines, maxWidth(lines), m}
	}
	return rows, nil
}

// seqLayout is where everything of a sequence diagram goes.
type seqLayout struct {
	heads         [][]string // participant names, wrapped
	headW         []int      // participant box widths
	headH         int        // height of every participant box
	xs            []int      // column centres
	ys            []int      // arrow of each row
	width, height int
}

// seqColumns sizes the participant boxes and places the columns.
func seqColumns(participants []string, rows []seqRow) *seqLayout {
	n := len(participants)
	l := &seqLayout{heads: make([][]string, n), headW: make([]int, n)}
	headLines := 1
	for i, p := range participants {
		l.heads[i] = wrap(p, headMax)
		l.headW[i] = maxWidth(l.heads[i]) + 2*headPadX
		headLines = max(headLines, len(l.heads[i]))
	}
	l.headH = headLines*lineHeight + 2*headPadY
	gaps, rightExtra := l.gaps(rows)
	l.xs = make([]int, n)
	l.xs[0] = margin + l.headW[0]/2
	for i := 1; i < n; i++ {
		l.xs[i] = l.xs[i-1] + gaps[i-1]
	}
	l.width = max(l.xs[n-1]+l.headW[n-1]/2, l.xs[n-1]+rightExtra) + margin
	return l
}

// gaps returns the distance between the centres of each column and the
// next, and the room right of the last column for its self-messages.
// They start from what the boxes need, then widen for each label,
// shortest spans first so that a long span only takes what its inner
// gaps lack, spreading the deficit evenly over the gaps it crosses.
func (l *seqLayout) gaps(rows []seqRow) (gaps []int, rightExtra int) {
	n := len(l.headW)
	gaps = make([]int, max(n-1, 0))
	for i := range gaps {
		gaps[i] = (l.headW[i]+l.headW[i+1])/2 + colGap
	}
	order := make([]int, len(rows))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return rows[order[a]].span() < rows[order[b]].span() })
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
	return gaps, rightExtra
}

// rowYs places the rows: each row's label sits above its arrow.
func (l *seqLayout) rowYs(rows []seqRow) {
	l.ys = make([]int, len(rows))
	y := margin + l.headH
	for i, r := range rows {
		y += rowGap + len(r.lines)*lineHeight + arrowGap
		l.ys[i] = y
		if r.from == r.to {
			y += selfLoopH
		}
	}
	l.height = y + bottomMargin
}

// draw writes the SVG: lifelines, then boxes over their tops, then the
// rows.
func (l *seqLayout) draw(participants []string, rows []seqRow) []byte {
	var w svgWriter
	w.header(l.width, l.height, "Sequence diagram: "+strings.Join(participants, ", "))
	w.s(`<g stroke-opacity="0.45" stroke-dasharray="4 4">` + "\n")
	for _, x := range l.xs {
		w.s("<line").attrN("x1", x).attrN("y1", margin+l.headH).attrN("x2", x).attrN("y2", l.height-margin).s("/>\n")
	}
	w.s("</g>\n")
	for i, x := range l.xs {
		w.s(`<rect fill-opacity="0.07" stroke-opacity="0.6" rx="4"`).
			attrN("x", x-l.headW[i]/2).attrN("y", margin).attrN("width", l.headW[i]).attrN("height", l.headH).s("/>\n")
		top := margin + (l.headH-len(l.heads[i])*lineHeight)/2 + textAscent + 2
		w.textLines(x, top, "middle", l.heads[i])
	}
	top := margin + l.headH
	for i, r := range rows {
		top = l.drawRow(&w, r, l.ys[i], top)
	}
	w.s("</svg>\n")
	return w.Bytes()
}

// drawRow draws one message with its arrow at y, below the row that ends
// at top, and returns where this row ends.
func (l *seqLayout) drawRow(w *svgWriter, r seqRow, ay, top int) int {
	linked := w.openLink(r.msg.Href)
	w.s("<g>")
	w.s("<title>").text(r.msg.Label).s("</title>\n")
	x1, x2 := l.xs[r.from], l.xs[r.to]
	// A transparent band over the whole row makes it one click target.
	bottom := ay + 4
	if r.from == r.to {
		bottom = ay + selfLoopH + 4
	}
	w.s(`<rect fill="transparent" stroke="none"`).attrN("x", 0).attrN("y", top).attrN("width", l.width).attrN("height", bottom-top).s("/>\n")
	labelTop := ay - arrowGap - (len(r.lines)-1)*lineHeight - 4
	if r.from == r.to {
		w.s(`<path fill="none"`).attr("d", fmt.Sprintf("M%d %dh%dv%dh%d", x1, ay, selfLoopW, selfLoopH, -(selfLoopW-arrowHead))).s("/>\n")
		arrow(w, x1, ay+selfLoopH, -1)
		w.textLines(x1+selfLoopW+6, labelTop, "start", r.lines)
	} else {
		dir := 1
		if x2 < x1 {
			dir = -1
		}
		w.s("<line").attrN("x1", x1).attrN("y1", ay).attrN("x2", x2-dir*arrowHead).attrN("y2", ay).s("/>\n")
		arrow(w, x2, ay, dir)
		w.textLines((x1+x2)/2, labelTop, "middle", r.lines)
	}
	w.s("</g>")
	if linked {
		w.s("</a>")
	}
	w.s("\n")
	return bottom
}

// arrow draws an arrowhead with its tip at (x, y) pointing right (dir 1)
// or left (dir -1).
func arrow(w *svgWriter, x, y, dir int) {
	b := x - dir*arrowHead
	w.s(`<path stroke="none"`).attr("d", fmt.Sprintf("M%d %dL%d %dL%d %dZ", x, y, b, y-4, b, y+4)).s("/>\n")
}
