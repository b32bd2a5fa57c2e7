package diagram

import (
	"bytes"
	"encoding/xml"
	"strconv"

	"github.com/kubewalk/kubewalk/internal/render/codehtml"
)

// svgWriter writes SVG markup. Every piece of caller text goes through
// text or attr (encoding/xml escaping, which also replaces characters XML
// cannot hold), and every href through codehtml.SafeHref, so a diagram
// inlined in a page cannot inject markup or script.
type svgWriter struct {
	bytes.Buffer
}

func (w *svgWriter) s(s string) *svgWriter { w.WriteString(s); return w }

func (w *svgWriter) n(n int) *svgWriter { w.WriteString(strconv.Itoa(n)); return w }

// text writes s escaped as character data.
func (w *svgWriter) text(s string) *svgWriter {
	xml.EscapeText(w, []byte(s)) // writes to a bytes.Buffer never fail
	return w
}

// attr writes name="value" with value escaped (EscapeText escapes quotes).
func (w *svgWriter) attr(name, value string) *svgWriter {
	w.WriteByte(' ')
	w.WriteString(name)
	w.WriteString(`="`)
	w.text(value)
	w.WriteByte('"')
	return w
}

// attrN writes name="n".
func (w *svgWriter) attrN(name string, n int) *svgWriter {
	w.WriteByte(' ')
	w.WriteString(name)
	w.WriteString(`="`)
	w.n(n)
	w.WriteByte('"')
	return w
}

// openLink opens <a href> when href is safe and reports whether it did.
func (w *svgWriter) openLink(href string) bool {
	if !codehtml.SafeHref(href) {
		return false
	}
	w.s("<a").attr("href", href).s(">")
	return true
}

// header writes the root element. The diagram draws with currentColor and
// opacity only, so it takes the page's text colour: readable on a light
// or a dark page without CSS of its own.
func (w *svgWriter) header(width, height int, label string) {
	w.s(`<svg xmlns="http://www.w3.org/2000/svg"`).
		attr("viewBox", "0 0 "+strconv.Itoa(width)+" "+strconv.Itoa(height)).
		attrN("width", width).attrN("height", height).
		s(` role="img"`).attr("aria-label", label).
		s(` font-family="sans-serif"`).attrN("font-size", fontSize).
		s(` fill="currentColor" stroke="currentColor">` + "\n")
}

// textLines writes lines of text centred (anchor "middle") or left-aligned
// ("start") at x, the first baseline at y.
func (w *svgWriter) textLines(x, y int, anchor string, lines []string) {
	for i, l := range lines {
		w.s(`<text stroke="none"`).attrN("x", x).attrN("y", y+i*lineHeight)
		if anchor != "start" {
			w.attr("text-anchor", anchor)
		}
		w.s(">").text(l).s("</text>\n")
	}
}

// lineHeight is the distance between baselines of wrapped text, px.
const lineHeight = 16
