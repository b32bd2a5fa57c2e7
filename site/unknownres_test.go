package site

import (
	"strings"
	"testing"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// A registration whose informer's resource the analyzer could not tell
// reads as a sentence on the handlers page, not as "?".
func TestHandlersUnknownResource(t *testing.T) {
	s := testBuild(t, "", withInput(func(in *Input) {
		h := in.Facts.Handlers[0]
		h.Informer = fact.Resource{}
		h.InformerExpr = "s.policyInformer"
		in.Facts.Handlers = append(in.Facts.Handlers, h)
	}))
	s.AssertFileContent("handlers.html", "! >?<")
	if strings.Count(s.File("handlers.html"), messages["en"]["handlers.unknownres"]) < 2 {
		t.Error("handlers page does not say the resource is not named, in the by-resource list and the row")
	}
}
