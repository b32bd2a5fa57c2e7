// Package nodelease is component-helpers' lease controller in small: an
// interface of one method that many types have, and the one
// implementation its constructor returns.
package nodelease

import "context"

// Controller renews a lease.
type Controller interface {
	Run(ctx context.Context)
}

type controller struct{}

// NewController returns the package's implementation.
func NewController() Controller { return &controller{} }

func (c *controller) Run(ctx context.Context) {}

// start runs c: the call resolves to the implementation beside the
// interface, not to the runners' thirteen others.
func start(ctx context.Context, c Controller) {
	c.Run(ctx) // want call "interface nodelease.start -> nodelease.controller.Run"
}
