package trace

import (
	"fmt"
	"io"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// maxOtherLines is how many groups of unfollowed writes the text shows per
// watcher; the rest are counted (JSON has them all).
const maxOtherLines = 6

// WriteText prints the trace as an indented tree, every hop with its
// file:line.
func WriteText(w io.Writer, tr *Trace) error {
	p := &printer{w: w}
	p.linef("", "Trace from %s at %s (depth %d)", resName(tr.Root.Resource), tr.Tag, tr.Depth)
	if len(tr.APIServer) > 0 {
		p.linef("", "")
		p.linef("", "Every write below is a request to kube-apiserver, which stores the object and")
		p.linef("", "serves it to the watchers of its resource (not repeated at each hop):")
		for _, s := range tr.APIServer {
			p.linef("", "  %s  %s", fact.ShortSymbol(s.Symbol), loc(s.Decl))
		}
	}
	p.linef("", "")
	p.node(tr.Root, "", true)
	return p.err
}

type printer struct {
	w   io.Writer
	err error
}

func (p *printer) linef(prefix, format string, args ...any) {
	if p.err != nil {
		return
	}
	_, p.err = fmt.Fprintf(p.w, "%s%s\n", prefix, strings.TrimRight(fmt.Sprintf(format, args...), " "))
}

func loc(l fact.Location) string {
	if l.IsZero() {
		return "(location unknown)"
	}
	return fmt.Sprintf("%s:%d", l.Path, l.StartLine)
}

func resName(r fact.Resource) string {
	gv := r.Version
	if r.Group != "" {
		gv = r.Group + "/" + r.Version
	}
	return fmt.Sprintf("%s (%s %s)", r.Resource, gv, r.Kind)
}

func (p *printer) node(n *Node, prefix string, root bool) {
	what := "created"
	if n.Subresource != "" {
		what = n.Subresource + " written"
	}
	p.linef(prefix, "%s %s — watchers get an %s event", resName(n.Resource), what, n.Event)
	for _, note := range n.Notes {
		p.linef(prefix, "  ! %s", note)
	}
	// Watchers followed or unconnected get a branch each; the others
	// are named on one line per status (-o json has their registrations).
	var shown []*Watcher
	var groups []string
	byStatus := map[string][]string{}
	for _, w := range n.Watchers {
		if w.Status == "expanded" || w.Status == "unconnected" || w.Status == "after-binding" || w.Status == "depth" {
			shown = append(shown, w)
			continue
		}
		if _, ok := byStatus[w.Status]; !ok {
			groups = append(groups, w.Status)
		}
		if !contains(byStatus[w.Status], w.Name) {
			byStatus[w.Status] = append(byStatus[w.Status], w.Name)
		}
	}
	for _, st := range groups {
		shown = append(shown, &Watcher{Status: "summary:" + st, Name: strings.Join(byStatus[st], ", ")})
	}
	for i, w := range shown {
		last := i == len(shown)-1
		head, cont := "├─ ", "│  "
		if last {
			head, cont = "└─ ", "   "
		}
		if st, ok := strings.CutPrefix(w.Status, "summary:"); ok {
			p.linef(prefix+head, "%s: %s", summaryLabel[st], w.Name)
			continue
		}
		p.watcher(w, prefix+head, prefix+cont)
	}
}

var summaryLabel = map[string]string{
	"ancestor":  "also watched by (on the path above, not followed again)",
	"seen":      "also watched by (followed above)",
	"secondary": "also watched by (their sync works on another resource; not followed)",
}

func (p *printer) watcher(w *Watcher, head, prefix string) {
	tag := ""
	if w.Status != "expanded" {
		tag = " [" + w.Status + "]"
	}
	sel := ""
	if w.FieldSelector != "" {
		sel = ", field selector " + w.FieldSelector
	}
	if w.Status != "expanded" && w.Status != "unconnected" {
		// One line is enough for watchers not followed.
		p.linef(head, "%s (%s%s) [%s: %s]  %s", w.Name, w.Via, sel, w.Status, w.Reason, loc(w.Registration.At))
		return
	}
	p.linef(head, "%s (%s%s)%s", w.Name, w.Via, sel, tag)
	p.linef(prefix, "   registered  %s  %s", fact.ShortSymbol(w.Registration.Symbol), loc(w.Registration.At))
	if w.Handler != nil {
		label := "handler"
		if w.Via == "reflector" {
			label = "reflector"
		}
		p.linef(prefix, "   %-11s %s  %s", label, fact.ShortSymbol(w.Handler.Symbol), loc(w.Handler.At))
	}
	for i, s := range w.Queue {
		label := ""
		if i == 0 {
			label = "queue"
			if w.Via == "reflector" {
				label = "store push"
			}
		}
		p.linef(prefix, "   %-11s → %s  %s", label, fact.ShortSymbol(s.Symbol), loc(s.At))
	}
	if w.Sync != nil {
		p.linef(prefix, "   %-11s %s  %s", "sync", fact.ShortSymbol(w.Sync.Symbol), loc(w.Sync.Decl))
	}
	if !w.Reason.IsZero() && w.Status == "unconnected" {
		p.linef(prefix, "   %s", w.Reason)
	}
	for _, u := range w.Unconnected {
		p.linef(prefix, "   ! %s", u)
	}
	for _, hop := range w.Writes {
		p.linef(prefix, "   writes %s", writeName(hop.Resource, hop.Subresource, hop.APIVerb, hop.Verb))
		for i, site := range hop.Sites {
			if i > 0 {
				p.linef(prefix, "     or")
			}
			for j, s := range site.Path {
				arrow := "  "
				if j > 0 {
					arrow = "→ "
				}
				p.linef(prefix, "     %s%s  %s", arrow, fact.ShortSymbol(s.Symbol), loc(s.At))
			}
			p.linef(prefix, "       %s", site.Write.Via)
		}
		if hop.More > 0 {
			p.linef(prefix, "     (+%d more call sites)", hop.More)
		}
		if hop.Next != nil {
			p.node(hop.Next, prefix+"   ", false)
		}
	}
	if len(w.Other) > 0 {
		p.linef(prefix, "   also writes (not followed):")
		for i, o := range w.Other {
			if i == maxOtherLines {
				p.linef(prefix, "     … %d more kinds of writes", len(w.Other)-i)
				break
			}
			same := ""
			if o.Same {
				same = " (the watched resource itself)"
			}
			p.linef(prefix, "     %s ×%d%s, nearest %s  %s", writeName(o.Resource, o.Subresource, o.APIVerb, strings.Join(o.Verbs, ",")), o.Count, same, fact.ShortSymbol(o.First.Write.Caller.Symbol), loc(o.First.Write.At))
		}
	}
}

func writeName(r fact.Resource, sub, apiVerb, verbs string) string {
	res := r.Resource
	if sub != "" {
		res += "/" + sub
	}
	if verbs != "" && verbs != apiVerb {
		return fmt.Sprintf("%s %s (%s)", res, apiVerb, verbs)
	}
	return res + " " + apiVerb
}
