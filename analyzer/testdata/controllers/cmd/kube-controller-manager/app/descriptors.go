package app

import (
	"k8s.io/kubernetes/pkg/controller/bar"
	"k8s.io/kubernetes/pkg/controller/foo"
	"k8s.io/kubernetes/pkg/features"
)

type Controller interface{ Run() }

type ControllerContext struct{ Enabled bool }

type ControllerDescriptor struct {
	name                      string
	constructor               func(ctx ControllerContext) (Controller, error)
	requiredFeatureGates      []features.Feature
	aliases                   []string
	isDisabledByDefault       bool
	isCloudProviderController bool
	requiresSpecialHandling   bool
}

const FooName = "foo-controller"

func NewControllerDescriptors() map[string]*ControllerDescriptor {
	controllers := map[string]*ControllerDescriptor{}
	register := func(d *ControllerDescriptor) { controllers[d.name] = d }
	register(newSpecialDescriptor())
	register(newFooDescriptor())
	register(newBarDescriptor())
	register(newCloudDescriptor())
	return controllers
}

func newFooDescriptor() *ControllerDescriptor {
	return &ControllerDescriptor{
		name:        FooName,
		aliases:     []string{"foo", "legacy-foo"},
		constructor: newFooController,
	}
}

func newFooController(ctx ControllerContext) (Controller, error) {
	if !ctx.Enabled {
		return nil, nil
	}
	c, err := foo.NewController(2)
	if err != nil {
		return nil, err
	}
	return c, nil
}

func newBarDescriptor() *ControllerDescriptor {
	return &ControllerDescriptor{
		name:                 "bar-controller",
		constructor:          newBarController,
		requiredFeatureGates: []features.Feature{features.FooGate, features.BarGate},
		isDisabledByDefault:  true,
	}
}

func newBarController(ctx ControllerContext) (Controller, error) {
	ctors := map[string]func() *bar.Bar{"alpha": bar.NewBarAlpha, "beta": bar.NewBarBeta}
	_ = ctors
	return bar.NewTyped(), nil
}

func newSpecialDescriptor() *ControllerDescriptor {
	return &ControllerDescriptor{
		name: "special-controller",
		constructor: func(ctx ControllerContext) (Controller, error) {
			return startSpecial(ctx)
		},
		requiresSpecialHandling: true,
	}
}

func startSpecial(ctx ControllerContext) (Controller, error) {
	c, _ := foo.NewController(1)
	return c, nil
}

func newCloudDescriptor() *ControllerDescriptor {
	return &ControllerDescriptor{
		name:                      "cloud-controller",
		constructor:               newCloudController,
		isCloudProviderController: true,
	}
}

// cloudLoop is the manager's own wrapper: its Run is what runs.
type cloudLoop struct{ b *bar.Bar }

func (l *cloudLoop) Run() {}

func newCloudController(ctx ControllerContext) (Controller, error) {
	return &cloudLoop{b: bar.NewBarAlpha()}, nil
}
