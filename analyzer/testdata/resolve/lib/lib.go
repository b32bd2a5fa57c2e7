// Package lib stands in for a typed client. It is a dependency of ctrl: its
// function bodies are not type-checked, so the unused variable in helper is
// no error.
package lib

import "strings"

// Client is a clientset.
type Client struct{}

// Things returns the things client of a namespace.
func (c *Client) Things(ns string) *ThingClient { return &ThingClient{ns: ns} }

// ThingClient creates things.
type ThingClient struct{ ns string }

// Create creates a thing.
func (t *ThingClient) Create(name string) (string, error) {
	return strings.ToUpper(name), nil
}

func helper() {
	unused := 1
}
