package site

import (
	"html/template"
	"slices"
)

// chainResources are the resources of the chain a reader starts from,
// the one every walkthrough begins with: a Deployment, its ReplicaSet,
// their Pods.
var chainResources = []string{"deployments.apps", "replicasets.apps", "pods"}

// focusGraphSVG draws the resources page's first graph: the chain's
// resources and only the components that watch or write them, each its
// own layout, small enough to read at a glance; the whole graph follows
// it, folded, with a choice of what to focus on (site.js). "" when the
// release's facts have none of the chain's resources.
func (b *builder) focusGraphSVG(rf resourceFacts) (template.HTML, error) {
	nodes, edges := b.resourceGraph(rf)
	keep := map[string]bool{}
	for _, k := range chainResources {
		if slices.Contains(rf.keys, k) {
			keep["r:"+k] = true
		}
	}
	if len(keep) == 0 {
		return "", nil
	}
	var es []graphEdge
	for _, e := range edges {
		if keep[e.To] {
			es = append(es, e)
			keep[e.From] = true
		}
	}
	var ns []graphNode
	for _, n := range nodes {
		if keep[n.ID] {
			ns = append(ns, n)
		}
	}
	return graphSVG(ns, es)
}
