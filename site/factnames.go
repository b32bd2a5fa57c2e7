package site

import (
	"fmt"
	"path"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// Readers' names for what facts.json names for machines. A func literal's
// symbol counts literals go/ssa style ("…NewDeploymentController$1"): a
// number a reader cannot look up. The pages name it by where it is
// written instead; facts.json keeps the symbol.

// literalWhere returns "deployment.NewDeploymentController
// (deployment_controller.go:124)": the declaration a func literal's symbol
// is written in, and where (at, "" for nowhere); ok is false for a
// declared function's symbol.
func literalWhere(sym, at string) (string, bool) {
	i := strings.IndexByte(sym, '$')
	if i < 0 {
		return "", false
	}
	where := fact.ShortSymbol(sym[:i])
	if at != "" {
		where += " (" + at + ")"
	}
	return where, true
}

// declAt is where a func literal declared at decl is, as its name says:
// "deployment_controller.go:124", "" for nowhere.
func declAt(decl fact.Location) string {
	if decl.IsZero() {
		return ""
	}
	return fmt.Sprintf("%s:%d", path.Base(decl.Path), decl.StartLine)
}

// shortName is fact.ShortSymbol, a func literal named "func literal in
// deployment.NewDeploymentController (deployment_controller.go:124)".
func (b *builder) shortName(sym string, decl fact.Location) string {
	return b.shortNameAt(sym, declAt(decl))
}

// shortNameAt is shortName with a func literal's place given (declAt, or
// as a page releases share prints it: views.literalAt).
func (b *builder) shortNameAt(sym, at string) string {
	if where, ok := literalWhere(sym, at); ok {
		return fmt.Sprintf(b.t("func.literal"), where)
	}
	return fact.ShortSymbol(sym)
}

// handlerName names a func literal handler by the field it fills, where it
// is written and what it calls: "AddFunc in
// deployment.NewDeploymentController (deployment_controller.go:124) →
// calls deployment.DeploymentController.addDeployment"; at is where the
// literal is (shortNameAt).
func (b *builder) handlerName(slot string, h *fact.Handler, at string) string {
	where, ok := literalWhere(h.Symbol, at)
	if !ok {
		return fact.ShortSymbol(h.Symbol)
	}
	name := fmt.Sprintf(b.t("func.literal"), where)
	if slot != "" {
		name = fmt.Sprintf(b.t("func.handler"), slot, where)
	}
	if len(h.Calls) > 0 {
		var cs []string
		for _, c := range h.Calls {
			cs = append(cs, b.shortName(c, fact.Location{}))
		}
		name += " → " + fmt.Sprintf(b.t("func.calls"), strings.Join(cs, ", "))
	}
	return name
}

// resourceName is the informer's resource as fact.Resource.Label gives it; an
// informer made per resource at run time (the garbage collector's and the
// quota controller's) reads as any resource.
func (b *builder) resourceName(h fact.HandlerRegistration) string {
	if h.InformerDynamic {
		return b.t("handlers.anyresource")
	}
	return b.resourceTitle(h.Informer.Label())
}

// resourceTitle is a resource label as a reader sees it: the label, or
// for an informer whose resource the analyzer could not tell ("?", a
// generic informer held in a field) a sentence saying so.
func (b *builder) resourceTitle(label string) string {
	if label == "?" {
		return b.t("handlers.unknownres")
	}
	return label
}
