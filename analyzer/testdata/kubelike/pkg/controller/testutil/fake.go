// Package testutil holds test doubles: not an implementation the calls
// pass links interface calls to.
package testutil

import (
	"context"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

type FakePodControl struct{ Templates []v1.Pod }

func (f *FakePodControl) CreatePods(ctx context.Context, namespace string, template *v1.Pod, object runtime.Object) error {
	f.Templates = append(f.Templates, *template)
	return nil
}
