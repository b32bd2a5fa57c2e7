package sorter

import "k8s.io/kubernetes/pkg/scheduler/framework"

const Name = "Sorter"

// Sorter is built inside a func literal in the registry.
type Sorter struct{}

func NewSorter(args any) (framework.Plugin, error) {
	var pl framework.Plugin = &Sorter{}
	return pl, nil
}

func (s Sorter) Name() string          { return Name }
func (s Sorter) Less(a, b string) bool { return a < b }
