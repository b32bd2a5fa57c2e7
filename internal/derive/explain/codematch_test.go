package explain

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/record"
	"github.com/kubewalk/kubewalk/walkthrough"
)

// codeMatchFixture is fixtureFacts with two handlers of Pods, and a
// recording of a Deployment's rollout whose items reach every rule that
// reads the steps: events under the steps of their recorder calls or of
// a facts block naming their reason, writes under the steps citing their
// line or their caller, a write's handlers (those a step explains
// first), Event objects' writes by their events, and a write no fact
// explains (whose note says why unless a step explains it).
func codeMatchFixture() (*fact.Facts, *record.Recording) {
	f := fixtureFacts()
	pods := fact.Resource{Version: "v1", Kind: "Pod", Resource: "pods"}
	for _, h := range []struct{ pkg, file, fn string }{
		{"pkg/controller/replicaset", "replica_set.go", "addPod"},
		{"pkg/controller/deployment", "deployment_controller.go", "addPod"},
	} {
		dir := h.pkg + "/"
		f.Handlers = append(f.Handlers, fact.HandlerRegistration{
			Component: h.pkg, Caller: fact.FuncRef{Symbol: kk + h.pkg + ".New", Decl: fact.Location{Path: dir + h.file, StartLine: 100, EndLine: 160}},
			At: loc(dir+h.file, 150), Method: "AddEventHandler", InformerExpr: "podInformer.Informer()", Informer: pods,
			Add: &fact.Handler{FuncRef: fact.FuncRef{Symbol: kk + h.pkg + "." + h.fn}, Form: "method value"},
		})
	}
	sa := func(c string) string { return "system:serviceaccount:kube-system:" + c }
	write := func(at int64, verb, res, sub, ns, name, user string) record.AuditEntry {
		return record.AuditEntry{At: at, Stage: "ResponseComplete", Verb: verb, Resource: res, Subresource: sub, Namespace: ns, Name: name, User: user}
	}
	rec := &record.Recording{
		Format: record.Format, Tag: "v1.36.3", Scenario: "deployment",
		Events: []record.Event{
			{At: 10, Type: "Normal", Reason: "ScalingReplicaSet", Object: record.ObjectRef{Kind: "Deployment", Namespace: "default", Name: "nginx"},
				Message: "Scaled up replica set nginx-abc from 0 to 3", Component: "deployment-controller", Name: "nginx.1", Namespace: "default"},
			{At: 20, Type: "Normal", Reason: "SuccessfulCreate", Object: record.ObjectRef{Kind: "ReplicaSet", Namespace: "default", Name: "nginx-abc"},
				Message: "Created pod: nginx-abc-x", Component: "replicaset-controller", Name: "nginx-abc.1", Namespace: "default"},
			{At: 40, Type: "Normal", Reason: "Pulled", Object: record.ObjectRef{Kind: "Pod", Namespace: "default", Name: "nginx-abc-x"},
				Message: `Container image "nginx" already present on machine`, Component: "kubelet", Name: "nginx-abc-x.1", Namespace: "default"},
		},
		Audit: []record.AuditEntry{
			write(-50, "create", "clusterroles", "", "", "admin", "system:apiserver"),
			write(10, "create", "replicasets", "", "default", "nginx-abc", sa("deployment-controller")),
			write(10, "create", "events", "", "default", "nginx.1", sa("deployment-controller")),
			write(20, "create", "pods", "", "default", "nginx-abc-x", sa("replicaset-controller")),
			write(30, "create", "pods", "binding", "default", "nginx-abc-x", "system:kube-scheduler"),
			write(40, "create", "events", "", "default", "nginx-abc-x.1", "system:node:node1"),
		},
	}
	rec.Audit[0].UserAgent = "kube-apiserver/v1.36.3 (linux/amd64) kubernetes/unknown"
	return f, rec
}

// editedDocs is fixtureDocs as an edit leaves them, and what the edit
// changes of the attribution: the steps move (their lines, a title), the
// Pods step cites createPods' first lines instead of the whole function
// (the Pod write goes under it by its caller, not its line), the binding
// step loses its facts block, a step for the kubelet's Pulled reason is
// gone, and the handler the walkthrough explains is the deployment
// controller's instead of the replica set controller's.
func editedDocs(f *fact.Facts, edited bool) []*walkthrough.Doc {
	docs := fixtureDocs(f)
	d := docs[0]
	handler := f.Handlers[2] // the replica set controller's Pods handler
	if edited {
		handler = f.Handlers[3]
	}
	d.Steps = append(d.Steps, walkthrough.Step{ID: "step-4-handler", Title: "A Pod's handler", Line: 320,
		Refs: []walkthrough.Ref{{Resolved: fact.Resolved{Symbol: fact.Symbol{Name: handler.Caller.Symbol, Decl: handler.Caller.Decl}}}}})
	if !edited {
		d.Steps = append(d.Steps, walkthrough.Step{ID: "step-5-pulled", Title: "The kubelet pulls the image", Line: 350,
			Segments: []walkthrough.Segment{{Facts: &walkthrough.FactsBlock{Kind: "events", Query: "reason=Pulled",
				Events: []fact.Event{{Reason: "Pulled", At: loc("pkg/kubelet/images/image_manager.go", 180)}}}}}})
		return docs
	}
	for i := range d.Steps {
		d.Steps[i].Line += 7
	}
	d.Steps[0].Title = "getNewReplicaSet, retitled"
	createPods := f.Events[0].Caller
	d.Steps[1].Refs = []walkthrough.Ref{{Resolved: fact.Resolved{Symbol: fact.Symbol{Name: createPods.Symbol,
		Decl: fact.Location{Path: createPods.Decl.Path, StartLine: createPods.Decl.StartLine - 5, EndLine: createPods.Decl.StartLine + 2}}}}}
	d.Steps[2].Segments = nil
	return docs
}

// A CodeMatch made over one set of walkthroughs and finished by an
// Explainer over another is that Explainer's Attribute: MatchCode reads
// no step, and AttributeSteps redoes all that does. The edit is one
// every such rule answers otherwise, and the CodeMatch is left as it
// was for the next.
func TestAttributeStepsOfAnotherEdit(t *testing.T) {
	f, rec := codeMatchFixture()
	before := New(f, editedDocs(f, false), Options{Permalink: permalink})
	after := New(f, editedDocs(f, true), Options{Permalink: permalink})
	m := before.MatchCode(rec)
	want := after.Attribute(rec)
	if diff := cmp.Diff(want, after.AttributeSteps(m)); diff != "" {
		t.Errorf("finished by the edited walkthroughs, a CodeMatch of the walkthroughs before differs from their Attribute (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(before.Attribute(rec), before.AttributeSteps(m)); diff != "" {
		t.Errorf("finishing a CodeMatch changed it (-want +got):\n%s", diff)
	}
	// The edit reaches each rule: were AttributeSteps to keep what the
	// steps before decided, the comparison above would fail.
	old := before.Attribute(rec)
	steps := func(ex Explanation) []string {
		var s []string
		for _, st := range ex.Steps {
			s = append(s, st.Step+"@"+itoa(st.Line)+" "+st.StepTitle)
		}
		return s
	}
	handlers := func(ex Explanation) []string {
		var s []string
		for _, h := range ex.Handlers {
			s = append(s, h.Symbol)
		}
		return s
	}
	for _, c := range []struct {
		what     string
		old, new Explanation
		differ   func(a, b Explanation) bool
	}{
		{"an event's steps (line, title)", old.Events[0].Explanation, want.Events[0].Explanation, func(a, b Explanation) bool { return !slices.Equal(steps(a), steps(b)) }},
		{"an event's steps by its reason alone", old.Events[2].Explanation, want.Events[2].Explanation, func(a, b Explanation) bool { return a.Explained != b.Explained }},
		{"a write's steps by its caller", old.Audit[3].Explanation, want.Audit[3].Explanation, func(a, b Explanation) bool { return !slices.Equal(steps(a), steps(b)) }},
		{"a write's handlers, those a step explains first", old.Audit[3].Explanation, want.Audit[3].Explanation, func(a, b Explanation) bool { return !slices.Equal(handlers(a), handlers(b)) }},
		{"a binding's steps by a facts block", old.Audit[4].Explanation, want.Audit[4].Explanation, func(a, b Explanation) bool { return !slices.Equal(steps(a), steps(b)) }},
		{"an Event's write by its event", old.Audit[5].Explanation, want.Audit[5].Explanation, func(a, b Explanation) bool { return a.Explained != b.Explained || a.Note != b.Note }},
		{"the summary", Explanation{Note: old.Summary.String()}, Explanation{Note: want.Summary.String()}, func(a, b Explanation) bool { return a.Note != b.Note }},
	} {
		if !c.differ(c.old, c.new) {
			t.Errorf("the edit does not change %s: %+v", c.what, c.new)
		}
	}
	if ex := want.Audit[0].Explanation; ex.Explained || ex.Note == "" {
		t.Errorf("a write no fact explains: %+v, want it unexplained, with a note", ex)
	}
	// Over other facts (without getNewReplicaSet's write), a CodeMatch
	// is matched again rather than finished with call sites of facts the
	// Explainer does not have.
	g := *f
	g.Writes = slices.Delete(slices.Clone(f.Writes), 2, 3)
	other := New(&g, editedDocs(f, true), Options{Permalink: permalink})
	if diff := cmp.Diff(other.Attribute(rec), other.AttributeSteps(m)); diff != "" {
		t.Errorf("over other facts (-want +got):\n%s", diff)
	}
}
