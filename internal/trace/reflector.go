package trace

import (
	"regexp"
	"sort"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer"
)

// A reflector is a raw list-watch: a function outside client-go calling
// one of client-go's list-watch constructors, and the reflector it feeds.
// The kubelet's API-server pod source (pkg/kubelet/config.NewSourceApiserver)
// is one: it watches pods with a spec.nodeName field selector and hands
// them to the kubelet through a channel, with no informer or handler.
type reflector struct {
	res       analyzer.Resource
	component string // directory
	lw        Step   // the list-watch call
	refl      *Step  // the NewReflector call, when found
	push      *Step  // the store's push function, when a func literal
	selector  string
}

const cacheSym = "k8s.io/client-go/tools/cache."

// reflectorSearchDepth bounds the search from a list-watch to its reflector.
const reflectorSearchDepth = 3

var listWatchFuncs = map[string]bool{
	cacheSym + "NewListWatchFromClient":         true,
	cacheSym + "NewFilteredListWatchFromClient": true,
}

var reflectorFuncs = map[string]bool{
	cacheSym + "NewReflector":            true,
	cacheSym + "NewReflectorWithOptions": true,
	cacheSym + "NewNamedReflector":       true,
}

var (
	stringLit  = regexp.MustCompile(`"([a-z0-9.-]+)"`)
	exampleObj = regexp.MustCompile(`&\w+\.(\w+)\{\}`)
	fieldsExpr = regexp.MustCompile(`fields\.\w+\([^()]*(\([^()]*\))?[^()]*\)`)
)

// findReflectors finds list-watch call sites from call edges and tells
// their resource from the call's source text (the resource is a string
// argument: `cache.NewListWatchFromClient(c, "pods", ns, selector)`), or
// from the example object passed to the reflector (&v1.Pod{}).
func (t *tracer) findReflectors() {
	var lines func(analyzer.Location) string
	if t.in.Source != nil {
		files := map[string][]string{}
		lines = func(l analyzer.Location) string {
			ls, ok := files[l.Path]
			if !ok {
				b, err := t.in.Source(l.Path)
				if err == nil {
					ls = strings.Split(string(b), "\n")
				}
				files[l.Path] = ls
			}
			var sb strings.Builder
			// A call may wrap: read to its end line, or two more lines.
			end := max(l.EndLine, l.StartLine+2)
			for i := l.StartLine; i <= end && i <= len(ls); i++ {
				sb.WriteString(ls[i-1])
				sb.WriteByte('\n')
			}
			return sb.String()
		}
	}
	// Functions sorted for a stable order.
	froms := make([]string, 0, len(t.out))
	for f := range t.out {
		froms = append(froms, f)
	}
	sort.Strings(froms)
	for _, from := range froms {
		if strings.HasPrefix(pkgDir(from), "staging/src/k8s.io/client-go/") {
			continue
		}
		for _, c := range t.out[from] {
			if !listWatchFuncs[c.To] {
				continue
			}
			r := reflector{component: dirOf(c.At.Path), lw: t.step(from, c.At, "")}
			text := ""
			if lines != nil {
				text = lines(c.At)
			}
			// The reflector: in this function or within two calls (the
			// kubelet starts it from a goroutine's func literal), and the
			// store's push function, a func literal of the reflector's
			// function.
			s := t.bfs([]string{from}, reflectorSearchDepth, "")
		search:
			for _, fn := range s.order {
				for _, rc := range t.out[fn] {
					if reflectorFuncs[rc.To] {
						st := t.step(fn, rc.At, "")
						r.refl = &st
						if lines != nil {
							text += lines(rc.At)
						}
						for _, lc := range t.out[fn] {
							if lc.Kind == "func literal" {
								p := t.step(lc.To, t.decl(lc.To), "func literal")
								if p.Decl.IsZero() {
									p.At = lc.At
								} else {
									p.At = p.Decl
								}
								r.push = &p
								break
							}
						}
						break search
					}
				}
			}
			r.res = t.resourceIn(text)
			if strings.Contains(text, "PodHostField") || strings.Contains(text, "spec.nodeName") {
				r.selector = "spec.nodeName"
			} else if m := fieldsExpr.FindString(text); m != "" {
				r.selector = m
			}
			if r.res.Resource == "" {
				t.unknownLW = append(t.unknownLW, r.lw)
				continue
			}
			t.reflectors = append(t.reflectors, r)
		}
	}
}

// resourceIn tells the resource from a list-watch's source text: the first
// string literal naming a known resource, else the example object's kind.
func (t *tracer) resourceIn(text string) analyzer.Resource {
	for _, m := range stringLit.FindAllStringSubmatch(text, -1) {
		for _, r := range t.kinds {
			if r.Resource == m[1] {
				return r
			}
		}
	}
	for _, m := range exampleObj.FindAllStringSubmatch(text, -1) {
		for _, r := range t.kinds {
			if r.Kind == m[1] {
				return r
			}
		}
	}
	return analyzer.Resource{}
}
