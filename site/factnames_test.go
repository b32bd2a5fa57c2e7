package site

import (
	"testing"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// A func literal's symbol ($N) never reaches a reader: it is named by the
// field it fills, where it is written and what it calls.
func TestLiteralNames(t *testing.T) {
	for _, lang := range []string{"en", "ko"} {
		b := &builder{t: func(k string) string { return messages[lang][k] }}
		h := &fact.Handler{
			FuncRef: fact.FuncRef{
				Symbol: "k8s.io/kubernetes/pkg/controller/deployment.NewDeploymentController$1",
				Decl:   fact.Location{Path: "pkg/controller/deployment/deployment_controller.go", StartLine: 124, EndLine: 126},
			},
			Form:  "func literal",
			Calls: []string{"k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.addDeployment"},
		}
		want := map[string]string{
			"en": "AddFunc in deployment.NewDeploymentController (deployment_controller.go:124) → calls deployment.DeploymentController.addDeployment",
			"ko": "deployment.NewDeploymentController (deployment_controller.go:124) 안의 AddFunc → deployment.DeploymentController.addDeployment 호출",
		}[lang]
		if got := b.handlerName("AddFunc", h, declAt(h.Decl)); got != want {
			t.Errorf("%s: handlerName = %q, want %q", lang, got, want)
		}
		if got, want := b.shortName("k8s.io/kubernetes/pkg/scheduler/util.BindPod$1$2", fact.Location{}), map[string]string{
			"en": "func literal in util.BindPod",
			"ko": "util.BindPod 안의 함수 리터럴",
		}[lang]; got != want {
			t.Errorf("%s: shortName = %q, want %q", lang, got, want)
		}
		if got := b.shortName("k8s.io/kubernetes/pkg/scheduler/util.BindPod", fact.Location{}); got != "util.BindPod" {
			t.Errorf("%s: shortName of a declaration = %q", lang, got)
		}
		gc := fact.HandlerRegistration{InformerDynamic: true}
		if got := b.resourceName(gc); got != messages[lang]["handlers.anyresource"] {
			t.Errorf("%s: resourceName of a dynamic informer = %q", lang, got)
		}
	}
}

// The events page shows what is set at run time with the values that
// reach it, and links each call site to the steps citing it.
func TestEventsPageDynamic(t *testing.T) {
	s := testBuild(t, "", withInput(func(in *Input) {
		e := in.Facts.Events[1] // cited by the deployment walkthrough's facts block
		e.Type, e.TypeExpr, e.Reason, e.ReasonExpr, e.Message, e.MessageExpr = "", "eventType", "", "reason", "", "msg"
		e.Dynamic = []string{"type", "reason", "message"}
		e.TypeValues, e.ReasonValues, e.MessageValues = []string{"Normal", "Warning"}, []string{"ScalingReplicaSet"}, []string{"Scaled <b>up</b> %s"}
		e.ReasonField, e.MessageField = "JobCondition.Reason", "JobCondition.Message"
		in.Facts.Events = append(in.Facts.Events, e)
	}))
	s.AssertFileContent("events.html",
		`title="eventType">set at run time</span>`,
		`values passed:</span> <code class="msg">Normal</code> <code class="msg">Warning</code>`,
		`<code class="msg">Scaled &lt;b&gt;up&lt;/b&gt; %s</code>`,
		`set at run time:</span> <code class="expr">msg</code>`,
		`Explained in:</span><br><a class="steplink" href="walkthroughs/deployment.html#`,
		// Values a field is given anywhere are said to be that.
		`<span class="meta">Not every value listed reaches this call: they are all the values the code gives <code>JobCondition.Reason</code> <code>JobCondition.Message</code></span>`,
	)
}
