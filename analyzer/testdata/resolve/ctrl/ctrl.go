// Package ctrl is a tiny controller for the analyzer's loader, symbol and
// resolver tests.
package ctrl

import (
	"fmt"

	"example.com/tree/lib"
	yaml "example.com/tree/yaml.v3"
)

// Controller syncs things.
type Controller struct {
	syncHandler func(key string) error
	client      *lib.Client
}

// NewController returns a controller.
func NewController(c *lib.Client) *Controller {
	ctl := &Controller{client: c}
	ctl.syncHandler = ctl.syncThing
	return ctl
}

// syncThing creates a thing.
// It is the sync handler.
func (c *Controller) syncThing(key string) error {
	if key == "" {
		return fmt.Errorf("empty key")
	}
	_, err := c.client.Things("default").Create(key)
	_ = yaml.Marshal(key)
	return err
}

const (
	// ReasonCreated is the reason of a created thing.
	ReasonCreated = "Created"
	ReasonFailed  = "Failed"
)

var defaultKey, otherKey = "a", "b"

// List is a generic list.
type List[T any] struct{ items []T }

// Len returns the list's length.
func (l *List[T]) Len() int { return len(l.items) }
