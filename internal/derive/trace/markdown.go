package trace

import (
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// WriteMarkdown writes the trace as a draft walkthrough in kubewalk's
// format (see package walkthrough): front matter with a title and the
// participants, an intro naming the API server's create path once, and one
// step per hop — a watcher seeing the resource, a write it makes — each
// with an excerpt anchored by symbol and, when source is given, a lines:
// pattern matching the registration or write line. Narrative is left as
// short prompts in italics for the author.
//
// Only expanded watchers, followed writes (their nearest call site) and
// reflectors are steps; watchers not followed are left out, as are the
// writes not followed. source may be nil.
func WriteMarkdown(w io.Writer, tr *Trace, source func(path string) ([]byte, error)) error {
	m := &mdWriter{source: source, files: map[string][]string{}}
	m.participants = []string{"kube-apiserver"}
	m.collect(tr.Root)
	kind := tr.Root.Resource.Kind
	var b strings.Builder
	fmt.Fprintf(&b, "---\n")
	fmt.Fprintf(&b, "title: %s\n", yamlString(fmt.Sprintf("Draft: what happens when you create a %s", kind)))
	fmt.Fprintf(&b, "summary: %s\n", yamlString(fmt.Sprintf("Derived by kubewalk trace %s at %s; edit before publishing.", tr.Root.Resource.Resource, tr.Tag)))
	fmt.Fprintf(&b, "topics: [trace, %s]\n", tr.Root.Resource.Resource)
	var ps []string
	for _, p := range m.participants {
		ps = append(ps, yamlString(p))
	}
	fmt.Fprintf(&b, "participants: [%s]\n", strings.Join(ps, ", "))
	fmt.Fprintf(&b, "---\n\n")
	fmt.Fprintf(&b, "_Prompt: say what the reader creates (a %s), why, and what they will see at the end._\n\n", kind)
	fmt.Fprintf(&b, "This draft was derived from the code at %s by `kubewalk trace %s --depth %d`: each component below watches what the one before it wrote.", tr.Tag, tr.Root.Resource.Resource, tr.Depth)
	if len(tr.APIServer) > 0 {
		var links []string
		for _, s := range tr.APIServer {
			links = append(links, goLink(s.Symbol))
		}
		fmt.Fprintf(&b, " Every write is a request to kube-apiserver, which stores the object and serves it to the watchers of its resource: %s.", strings.Join(links, ", then "))
	}
	b.WriteString("\n")
	m.b = &b
	m.node(tr.Root, "kube-apiserver")
	_, err := io.WriteString(w, b.String())
	return err
}

type mdWriter struct {
	b            *strings.Builder
	source       func(string) ([]byte, error)
	files        map[string][]string
	participants []string
}

func (m *mdWriter) collect(n *Node) {
	for _, w := range n.Watchers {
		if !stepWatcher(w) {
			continue
		}
		if !contains(m.participants, w.Name) {
			m.participants = append(m.participants, w.Name)
		}
		for _, h := range w.Writes {
			if h.Next != nil {
				m.collect(h.Next)
			}
		}
	}
}

// stepWatcher reports whether a watcher becomes a step: it was followed,
// or it is a reflector (the end of the chain).
func stepWatcher(w *Watcher) bool {
	return w.Status == "expanded" || (w.Via == "reflector" && w.Status == "unconnected")
}

func (m *mdWriter) node(n *Node, writer string) {
	what := n.Resource.Kind
	if n.Subresource != "" {
		what = n.Resource.Kind + " " + n.Subresource
	}
	for _, w := range n.Watchers {
		if !stepWatcher(w) {
			continue
		}
		label := "watch " + n.Resource.Resource
		if w.FieldSelector != "" {
			label += " (" + w.FieldSelector + ")"
		}
		fmt.Fprintf(m.b, "\n## The %s sees the %s {from=%q to=%q label=%q}\n\n", w.Name, what, "kube-apiserver", w.Name, label)
		fmt.Fprintf(m.b, "_Prompt: what does the %s watch, and why does it care about this %s?_\n\n", w.Name, n.Resource.Kind)
		var parts []string
		parts = append(parts, fmt.Sprintf("registered in %s", goLink(w.Registration.Symbol)))
		if w.Handler != nil {
			parts = append(parts, fmt.Sprintf("handled by %s", goLink(w.Handler.Symbol)))
		}
		for i, q := range w.Queue {
			if i == 0 && w.Handler != nil && q.Symbol == w.Handler.Symbol {
				continue
			}
			parts = append(parts, fmt.Sprintf("then %s", goLink(q.Symbol)))
		}
		if w.Sync != nil {
			parts = append(parts, fmt.Sprintf("worked on by %s", goLink(w.Sync.Symbol)))
		}
		fmt.Fprintf(m.b, "The watch is %s.\n", strings.Join(parts, ", "))
		for _, u := range w.Unconnected {
			fmt.Fprintf(m.b, "\n> Not connected by the trace: %s.\n", strings.TrimSuffix(u.String(), "."))
		}
		m.excerpt(w.Registration.Symbol, w.Registration.At, fmt.Sprintf("The %s registers its watch of %s.", w.Name, n.Resource.Resource))
		for _, h := range w.Writes {
			if len(h.Sites) == 0 {
				continue
			}
			site := h.Sites[0]
			res := h.Resource.Resource
			if h.Subresource != "" {
				res += "/" + h.Subresource
			}
			verb := "creates a " + h.Resource.Kind
			if h.Subresource == "binding" {
				verb = "binds the " + h.Resource.Kind
			}
			fmt.Fprintf(m.b, "\n## The %s %s {from=%q to=%q label=%q}\n\n", w.Name, verb, w.Name, "kube-apiserver", "POST "+res)
			fmt.Fprintf(m.b, "_Prompt: why does the %s write this, and what does the object say?_\n\n", w.Name)
			fmt.Fprintf(m.b, "The call path, from the sync function to the write (`%s`):\n\n", site.Write.Via)
			for _, s := range site.Path {
				fmt.Fprintf(m.b, "1. %s\n", goLink(s.Symbol))
			}
			if len(h.Sites) > 1 || h.More > 0 {
				fmt.Fprintf(m.b, "\n_%d other call sites make the same write; `kubewalk trace` lists them._\n", len(h.Sites)-1+h.More)
			}
			m.excerpt(site.Write.Caller.Symbol, site.Write.At, fmt.Sprintf("The %s writes %s.", w.Name, res))
			if h.Next != nil {
				m.node(h.Next, w.Name)
			}
		}
	}
}

// excerpt writes an excerpt block of the declaration holding sym, with a
// lines: pattern matching the line at, when the source shows it.
func (m *mdWriter) excerpt(sym string, at fact.Location, caption string) {
	fmt.Fprintf(m.b, "\n```excerpt\nref: %s\n", topLevel(sym))
	if line := m.line(at); line != "" {
		fmt.Fprintf(m.b, "lines: %s\n", linePattern(line))
	}
	fmt.Fprintf(m.b, "caption: %s\n```\n", caption)
}

func (m *mdWriter) line(at fact.Location) string {
	if m.source == nil || at.IsZero() {
		return ""
	}
	ls, ok := m.files[at.Path]
	if !ok {
		if b, err := m.source(at.Path); err == nil {
			ls = strings.Split(string(b), "\n")
		}
		m.files[at.Path] = ls
	}
	if at.StartLine < 1 || at.StartLine > len(ls) {
		return ""
	}
	return strings.TrimSpace(ls[at.StartLine-1])
}

// maxPatternLen keeps lines: patterns readable: the start of a long line
// is distinctive enough inside one declaration.
const maxPatternLen = 60

// linePattern is a regexp matching a source line: its text, trimmed and
// quoted, cut at a word boundary when long.
func linePattern(line string) string {
	if len(line) > maxPatternLen {
		cut := strings.LastIndexAny(line[:maxPatternLen], " (,")
		if cut < maxPatternLen/2 {
			cut = maxPatternLen
		}
		line = line[:cut]
	}
	return regexp.QuoteMeta(strings.TrimSpace(line))
}

// goLink is an inline reference to a symbol's declaration; func literals
// link to their enclosing declaration.
func goLink(sym string) string {
	return fmt.Sprintf("[`%s`](go:%s)", fact.ShortSymbol(sym), topLevel(sym))
}

// yamlString quotes a string for YAML flow context.
func yamlString(s string) string {
	return fmt.Sprintf("%q", s)
}
