package features

// Feature stands in for component-base's featuregate.Feature.
type Feature string

const (
	FooGate Feature = "FooGate"
	BarGate Feature = "BarGate"
)

type gate struct{}

func (gate) Enabled(f Feature) bool { return false }

var DefaultFeatureGate gate
