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
// Inline the SVG in the page (not <img>, which would disable its links).
// Drawings use currentColor and opacities only — no colours, no <style>,
// no ids — so a diagram takes the page's text colour in light and dark
// mode, and two diagrams on one page cannot clash. The site sizes them with
// CSS (max-width: 100%; height: auto); width and height attributes carry
// the natural size.
//
// Text is measured, not rendered, at build time: textWidth estimates a
// string's width from a per-rune table (DejaVu Sans advances for ASCII, a
// full em for Hangul and CJK), erring wide, so labels wrap (sequence
// messages, at spaces, after '/' '.' '-' '_' in long paths, between any
// two runes as a last resort) or are cut with an ellipsis (graph boxes)
// before they overflow.
//
// # Safety and determinism
//
// All caller text is escaped with encoding/xml; hrefs must pass
// codehtml.SafeHref. Output depends on nothing but the input (and, for
// Graph, not on the input's order): two runs are byte-identical, which
// golden files in testdata check (go test -update rewrites them).
//
// # Layout libraries
//
// A sequence diagram is a grid and needs none (see Sequence). The resource
// graph uses gonum for the part that is hard — ordering nodes so that
// related ones sit together — and places them in two columns itself; see
// Graph for why gonum's force-directed layout was not used, and
// testdata/graph.svg beside testdata/graph_force.svg for the comparison.
package diagram
