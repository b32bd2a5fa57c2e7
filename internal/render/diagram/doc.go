// Package diagram draws kubewalk's diagrams as static SVG, made at build
// time: a sequence diagram at the top of each walkthrough (Sequence) and
// the resource graph of the indexes — components, and the resources they
// watch and write (Graph).
//
//	svg, err := diagram.Sequence(
//		[]string{"kubectl", "kube-apiserver", "deployment controller"},
//		[]diagram.Message{
//			{From: "kubectl", To: "kube-apiserver", Label: "create Deployment", Href: "#create"},
//			{From: "kube-apiserver", To: "deployment controller", Label: "watch event", Href: "#informer"},
//		})
//
//	svg, err = diagram.Graph(
//		[]diagram.Node{
//			{ID: "c:deployment", Label: "deployment", Cluster: "kube-controller-manager", Href: "handlers.html#c-deployment"},
//			{ID: "r:replicasets", Label: "replicasets.apps", Kind: "resource", Href: "#res-replicasets"},
//		},
//		[]diagram.Edge{
//			{From: "c:deployment", To: "r:replicasets", Kind: "watches"},
//			{From: "c:deployment", To: "r:replicasets", Kind: "writes", Label: "deployment writes replicasets.apps (create)"},
//		})
//
// Inline the SVG in the page (not <img>, which would disable its links).
// Drawings use currentColor and opacities only — no colours, no <style>,
// no ids — so a diagram takes the page's text colour in light and dark
// mode, and two diagrams on one page cannot clash. The site sizes them with
// CSS (max-width: 100%; height: auto); width and height attributes carry
// the natural size, in px, with text at 13 px.
//
// Text is measured, not rendered, at build time: textWidth estimates a
// string's width from a per-rune table (DejaVu Sans advances for ASCII, a
// full em for Hangul and CJK), erring wide, so sequence messages wrap (at
// spaces, after '/' '.' '-' '_' in long paths, between any two runes as a
// last resort) and graph boxes are made wide enough before anything
// overflows. Graph labels are never cut.
//
// # Safety and determinism
//
// All caller text is escaped with encoding/xml; hrefs must pass
// codehtml.SafeHref. Graph takes Graphviz's SVG apart and writes it again
// (clean), keeping only the elements and attributes a diagram uses and
// writing every label, tooltip and href from the caller's value, never
// from Graphviz's copy. Output depends on nothing but the input (and not
// on the input's order): two runs are byte-identical, which golden files
// in testdata check (go test -update rewrites them).
//
// # Layout libraries
//
// A sequence diagram is a grid and needs none (see Sequence). The
// resource graph is laid out by Graphviz's dot, the layered layout it was
// made for (ranks, crossing reduction, clusters, splines routed around
// boxes), through github.com/goccy/go-graphviz: Graphviz compiled to
// WebAssembly and run by wazero, so it is pure Go, needs nothing
// installed and never touches the network. See Graph for the layout,
// dot.go for what running it costs, and internal/render/wasmcache for where the
// compiled Graphviz is kept (not in /tmp).
package diagram
