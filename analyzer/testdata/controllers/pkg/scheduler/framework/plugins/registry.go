package plugins

import (
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/alpha"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/beta"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/sorter"
	"k8s.io/kubernetes/pkg/scheduler/framework/runtime"
)

func NewInTreeRegistry() runtime.Registry {
	fts := true
	return runtime.Registry{
		alpha.Name: runtime.FactoryAdapter(fts, alpha.New),
		beta.Name:  beta.New,
		sorter.Name: func(args any) (framework.Plugin, error) {
			return sorter.NewSorter(args)
		},
	}
}
