package app

import (
	"k8s.io/kubernetes/pkg/controller/foo"
	"k8s.io/kubernetes/pkg/features"
)

type InitFunc func() (bool, error)

type ControllerLoopMode int

const (
	IncludeCloudLoops ControllerLoopMode = iota
	ExternalLoops
)

var ControllersDisabledByDefault = newSet("tokencleaner")

func newSet(names ...string) map[string]bool { return nil }

func NewControllerInitializers(loopMode ControllerLoopMode) map[string]InitFunc {
	controllers := map[string]InitFunc{}
	register := func(name string, fn InitFunc) { controllers[name] = fn }
	register("foo", startFoo)
	controllers["tokencleaner"] = startFoo
	if loopMode == IncludeCloudLoops {
		register("service", startFoo)
	}
	if features.DefaultFeatureGate.Enabled(features.BarGate) {
		register("gated", startFoo)
	}
	return controllers
}

func startFoo() (bool, error) {
	if _, err := foo.NewController(3); err != nil {
		return false, err
	}
	return true, nil
}
