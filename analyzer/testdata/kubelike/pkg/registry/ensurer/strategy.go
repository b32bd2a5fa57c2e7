// Package ensurer writes through generic clients whose resource is a type
// argument, as the API Priority and Fairness configuration ensurer does,
// and through client-go's event sink.
package ensurer

import (
	"context"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/record"
)

type client[T any] interface {
	Create(ctx context.Context, obj T, opts metav1.CreateOptions) (T, error)
	Delete(ctx context.Context, name string, opts metav1.DeleteOptions) error
}

// store is no client: its Update takes no request options.
type store[T any] interface {
	Update(obj T) error
}

func ensure[T any](ctx context.Context, c client[T], s store[T], obj T) {
	c.Create(ctx, obj, metav1.CreateOptions{}) // want write "nodes create apiVerb=create group= version=v1 kind=Node via=client.Create caller=ensurer.ensure" // want write "pods create apiVerb=create group= version=v1 kind=Pod via=client.Create caller=ensurer.ensure"
	s.Update(obj)
}

// Ensure passes its type parameter on to ensure.
func Ensure[ObjectType any](ctx context.Context, c client[ObjectType], s store[ObjectType], obj ObjectType) {
	ensure(ctx, c, s, obj)
}

// EnsureNodes instantiates Ensure with nodes, EnsurePods ensure with pods.
func EnsureNodes(ctx context.Context, c client[*v1.Node], s store[*v1.Node], n *v1.Node) {
	Ensure(ctx, c, s, n)
}

func EnsurePods(ctx context.Context, c client[*v1.Pod], s store[*v1.Pod]) {
	ensure(ctx, c, s, &v1.Pod{})
	c.Delete(ctx, "old", metav1.DeleteOptions{}) // want write "pods delete apiVerb=delete group= version=v1 kind=Pod via=client.Delete caller=ensurer.EnsurePods"
}

func recordToSink(sink record.EventSink, ev *v1.Event, patch []byte) {
	if patch != nil {
		sink.Patch(ev, patch) // want write "events patch apiVerb=patch group= version=v1 kind=Event via=EventSink.Patch caller=ensurer.recordToSink"
		return
	}
	sink.Create(ev) // want write "events create apiVerb=create group= version=v1 kind=Event via=EventSink.Create caller=ensurer.recordToSink"
}
