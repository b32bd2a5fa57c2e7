package site

import "strings"

// programs are the Kubernetes programs the resource graph frames its
// components in, by the directory (or import path, for staging modules)
// their code lives under. A component is a package directory, so the
// first entry it lies within names its program; one in none is drawn
// unframed.
var programs = []struct{ dir, name string }{
	{"pkg/controller", "kube-controller-manager"},
	{"pkg/scheduler", "kube-scheduler"},
	{"pkg/kubelet", "kubelet"},
	{"pkg/proxy", "kube-proxy"},
	{"pkg/registry", "kube-apiserver"},
	{"pkg/controlplane", "kube-apiserver"},
	{"k8s.io/apiserver", "kube-apiserver"},
	{"k8s.io/kubectl", "kubectl"},
	{"k8s.io/cloud-provider", "cloud-controller-manager"},
}

// componentNode is the resource graph's box for component dir: framed
// with the other components of its program, the frame saying the
// program's directory once and the box the rest of the path
// ("kube-controller-manager: pkg/controller/" around "volume/expand"), so
// that the column is as narrow as the paths allow.
func componentNode(dir, href string) graphNode {
	n := graphNode{ID: "c:" + dir, Label: dir, Kind: "component", Href: href}
	for _, p := range programs {
		rest, ok := strings.CutPrefix(dir, p.dir)
		if !ok || rest != "" && rest[0] != '/' {
			continue
		}
		n.Cluster = p.name + ": " + p.dir + "/"
		if rest != "" {
			n.Label = rest[1:]
		}
		return n
	}
	return n
}

// resourceNode is the resource graph's box for resource k, linking to its
// section.
func (b *builder) resourceNode(k, href string) graphNode {
	return graphNode{ID: "r:" + k, Label: b.graphLabel(k), Kind: "resource", Href: href}
}

// graphLabel is what the resource graph calls resource k: its name, or,
// for the resource the analyzer could not name ("?": a dynamic client's,
// or an informer whose type is known only at run time), words saying so.
func (b *builder) graphLabel(k string) string {
	if k == "?" {
		return b.t("resources.unknown")
	}
	return k
}
