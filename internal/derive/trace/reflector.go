package trace

import (
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// A reflector is a raw list-watch: a function outside client-go making a
// ListerWatcher itself, and the reflector it feeds.
// The kubelet's API-server pod source (pkg/kubelet/config.NewSourceApiserver)
// is one: it watches pods with a spec.nodeName field selector and hands
// them to the kubelet through a channel, with no informer or handler.
type reflector struct {
	res       fact.Resource
	component string // directory
	lw        Step   // the list-watch call
	refl      *Step  // the NewReflector call, when found
	push      *Step  // the store's push function, when a func literal
	selector  string
}

// findReflectors takes the raw list-watches from the facts (the analyzer's
// listwatches pass): those fed to a reflector, or to nothing the analyzer
// could follow, are watchers of their resource; those fed to an informer
// are already handler registrations.
func (t *tracer) findReflectors() {
	for _, lw := range t.in.Facts.ListWatches {
		if strings.HasPrefix(lw.At.Path, "staging/src/k8s.io/client-go/") {
			continue
		}
		if !lw.Raw() {
			continue
		}
		var refl *fact.ListWatchConsumer
		for i, c := range lw.Consumers {
			if c.Kind == "reflector" {
				refl = &lw.Consumers[i]
				break
			}
		}
		r := reflector{component: dirOf(lw.At.Path), lw: t.step(lw.Caller.Symbol, lw.At, ""), res: lw.Resource}
		r.selector = strings.Join(lw.Fields, ",")
		if r.selector == "" {
			r.selector = lw.FieldSelector
		}
		if refl != nil {
			st := t.step(refl.Caller.Symbol, refl.At, "")
			r.refl = &st
			if refl.Push != nil {
				kind := "func"
				if strings.Contains(refl.Push.Symbol, "$") {
					kind = "func literal"
				}
				p := t.step(refl.Push.Symbol, refl.Push.Decl, kind)
				p.At = p.Decl
				if p.At.IsZero() {
					p.At = refl.At
				}
				r.push = &p
			}
		}
		if r.res.Resource == "" {
			t.unknownLW = append(t.unknownLW, r.lw)
			continue
		}
		// A resource named without its group and version (a REST client
		// the analyzer could not place): complete it from the resources
		// the facts know.
		if r.res.Kind == "" {
			for _, k := range t.kinds {
				if k.Resource == r.res.Resource {
					r.res = k
					break
				}
			}
		}
		t.reflectors = append(t.reflectors, r)
	}
}
