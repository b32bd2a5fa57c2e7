// Package gentype mimics client-go v0.31+'s generic typed clients.
package gentype

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
)

type Client[T runtime.Object] struct{ resource string }

type ClientWithList[T runtime.Object, L runtime.Object] struct {
	*Client[T]
	alsoLister[T, L]
}

type alsoLister[T runtime.Object, L runtime.Object] struct{ newList func() L }

func NewClientWithList[T runtime.Object, L runtime.Object](resource string) *ClientWithList[T, L] {
	return &ClientWithList[T, L]{Client: &Client[T]{resource: resource}}
}

func (c *Client[T]) Get(ctx context.Context, name string, opts metav1.GetOptions) (T, error) {
	var t T
	return t, nil
}

func (c *Client[T]) Create(ctx context.Context, obj T, opts metav1.CreateOptions) (T, error) {
	return obj, nil
}

func (c *Client[T]) Update(ctx context.Context, obj T, opts metav1.UpdateOptions) (T, error) {
	return obj, nil
}

func (c *Client[T]) UpdateStatus(ctx context.Context, obj T, opts metav1.UpdateOptions) (T, error) {
	return obj, nil
}

func (c *Client[T]) Delete(ctx context.Context, name string, opts metav1.DeleteOptions) error {
	return nil
}

func (c *Client[T]) Patch(ctx context.Context, name string, pt types.PatchType, data []byte, opts metav1.PatchOptions, subresources ...string) (T, error) {
	var t T
	return t, nil
}

func (l *alsoLister[T, L]) List(ctx context.Context, opts metav1.ListOptions) (L, error) {
	return l.newList(), nil
}
