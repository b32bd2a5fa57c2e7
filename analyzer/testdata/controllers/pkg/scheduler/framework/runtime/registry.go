package runtime

import "k8s.io/kubernetes/pkg/scheduler/framework"

type PluginFactory func(args any) (framework.Plugin, error)

type Registry map[string]PluginFactory

// FactoryAdapter wraps a factory taking features, as the real one does.
func FactoryAdapter(fts bool, f func(args any, fts bool) (framework.Plugin, error)) PluginFactory {
	return func(args any) (framework.Plugin, error) { return f(args, fts) }
}
