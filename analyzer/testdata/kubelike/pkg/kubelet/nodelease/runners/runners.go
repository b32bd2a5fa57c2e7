// Package runners has many types with a Run(ctx) method, as a release
// has: more than an interface call is resolved to.
package runners

import "context"

type R0 struct{}

func (R0) Run(ctx context.Context) {}

type R1 struct{}

func (R1) Run(ctx context.Context) {}

type R2 struct{}

func (R2) Run(ctx context.Context) {}

type R3 struct{}

func (R3) Run(ctx context.Context) {}

type R4 struct{}

func (R4) Run(ctx context.Context) {}

type R5 struct{}

func (R5) Run(ctx context.Context) {}

type R6 struct{}

func (R6) Run(ctx context.Context) {}

type R7 struct{}

func (R7) Run(ctx context.Context) {}

type R8 struct{}

func (R8) Run(ctx context.Context) {}

type R9 struct{}

func (R9) Run(ctx context.Context) {}

type R10 struct{}

func (R10) Run(ctx context.Context) {}

type R11 struct{}

func (R11) Run(ctx context.Context) {}

type R12 struct{}

func (R12) Run(ctx context.Context) {}
