package walkthrough

import (
	"slices"
	"testing"
	"testing/fstest"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/testsupport/fakeresolver"
)

// component= keeps a facts block to one package: the ReplicaSet step's
// SuccessfulCreate is the pod control's ("Created pod: …"), not the
// CronJob controller's ("Created job …"), which records the same reason.
func TestFactsComponentSelector(t *testing.T) {
	ev := func(sym, msg string) fact.Event {
		return fact.Event{Caller: fact.FuncRef{Symbol: sym}, Reason: "SuccessfulCreate", Type: "Normal", Recorder: "record", Message: msg}
	}
	facts := &fact.Facts{Tag: "v1.37.2", Events: []fact.Event{
		ev("k8s.io/kubernetes/pkg/controller.RealPodControl.createPods", "Created pod: %v"),
		ev("k8s.io/kubernetes/pkg/controller/cronjob.ControllerV2.syncCronJob", "Created job %v"),
	}}
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"reason=SuccessfulCreate", []string{"Created pod: %v", "Created job %v"}},
		{"reason=SuccessfulCreate component=pkg/controller", []string{"Created pod: %v"}},
		{"reason=SuccessfulCreate component=pkg/controller/cronjob", []string{"Created job %v"}},
	} {
		src := "---\ntitle: T\n---\n\n## Pods\n\n```facts\nevents: " + tc.query + "\n```\n"
		docs, err := Load(fstest.MapFS{"w.md": {Data: []byte(src)}}, ".", "en", testOptions(&fakeresolver.Resolver{Found: facts}))
		if err != nil {
			t.Fatalf("%s: %v", tc.query, err)
		}
		var got []string
		for _, s := range docs[0].Steps[0].Segments {
			if s.Facts != nil {
				for _, e := range s.Facts.Events {
					got = append(got, e.Message)
				}
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.query, got, tc.want)
		}
	}
}
