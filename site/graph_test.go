package site

import (
	"encoding/xml"
	"regexp"
	"strings"
	"testing"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

func TestComponentNode(t *testing.T) {
	for _, tc := range []struct{ dir, label, cluster string }{
		{"pkg/controller/deployment", "deployment", "kube-controller-manager: pkg/controller/"},
		{"pkg/controller/volume/expand", "volume/expand", "kube-controller-manager: pkg/controller/"},
		{"pkg/controller", "pkg/controller", "kube-controller-manager: pkg/controller/"},
		{"pkg/kubelet/config", "config", "kubelet: pkg/kubelet/"},
		{"pkg/proxy/config", "config", "kube-proxy: pkg/proxy/"},
		{"k8s.io/kubectl/pkg/cmd/apply", "pkg/cmd/apply", "kubectl: k8s.io/kubectl/"},
		// A directory that merely starts like a program's is not in it.
		{"pkg/controllerx/y", "pkg/controllerx/y", ""},
		{"cmd/other", "cmd/other", ""},
	} {
		n := componentNode(tc.dir, "h.html")
		if n.Label != tc.label || n.Cluster != tc.cluster || n.ID != "c:"+tc.dir || n.Kind != "component" || n.Href != "h.html" {
			t.Errorf("componentNode(%q) = %+v, want label %q in cluster %q", tc.dir, n, tc.label, tc.cluster)
		}
	}
}

// TestResourceGraph reads the resources page's graph as a reader would:
// a legend, a frame per program, a box per component and resource that
// links to its handlers or its section, and the resource the analyzer
// could not name called what it is rather than "?".
func TestResourceGraph(t *testing.T) {
	out, _ := buildFixture(t, func(in *Input) {
		w := in.Facts.Writes[0]
		w.Resource = fact.Resource{}
		in.Facts.Writes = append(in.Facts.Writes, w)
	})
	page := readTree(t, out)["resources.html"]
	svgs := regexp.MustCompile(`(?s)<svg xmlns.*?</svg>`).FindAllString(page, -1)
	if len(svgs) != 2 || !strings.Contains(page, `<details class="wholegraph">`) {
		t.Fatalf("resources page: %d graphs, want the chain's and the whole one, folded", len(svgs))
	}
	// The chain's graph: its resources and the components that touch
	// them, nothing else.
	focus, svg := svgs[0], svgs[1]
	for _, want := range []string{">pods</text>", ">replicasets.apps</text>", ">deployment</text>"} {
		if !strings.Contains(focus, want) {
			t.Errorf("the chain's graph lacks %s", want)
		}
	}
	if strings.Contains(focus, "kind not known") {
		t.Error("the chain's graph has a resource off the chain")
	}
	for _, want := range []string{"writes: the arrowhead points at the resource", "watches: the arrowhead points at the component"} {
		if !strings.Contains(page, want) {
			t.Errorf("legend lacks %q", want)
		}
	}
	// Boxes and frames: a text in a group, with the link around it.
	type item struct{ text, href string }
	var items []item
	for _, m := range regexp.MustCompile(`<g(?: data-node="\d+" data-kind="[a-z]+")?>(?:<a href="([^"]*)">)?<(?:path|polygon|rect)[^>]*/><text[^>]*>([^<]*)</text>`).FindAllStringSubmatch(svg, -1) {
		var text string
		if err := xml.Unmarshal([]byte("<t>"+m[2]+"</t>"), &text); err != nil {
			t.Fatal(err)
		}
		items = append(items, item{text, m[1]})
	}
	has := func(text, href string) bool {
		for _, it := range items {
			if it.text == text && it.href == href {
				return true
			}
		}
		return false
	}
	for _, want := range []item{
		{"kube-controller-manager: pkg/controller/", ""},
		{"kube-scheduler: pkg/scheduler/", ""},
		{"deployment", "handlers.html#c-pkg-2fcontroller-2fdeployment"},
		{"pods", "#res-pods"},
		{"replicasets.apps", "#res-replicasets-2eapps"},
		{"? kind not known statically", "#res--3f"},
	} {
		if !has(want.text, want.href) {
			t.Errorf("graph lacks %q linking to %q; has %q", want.text, want.href, items)
		}
	}
	for _, it := range items {
		if it.text == "?" {
			t.Error(`graph has a bare "?" box`)
		}
		if id, ok := strings.CutPrefix(it.href, "#"); ok && !strings.Contains(page, `id="`+id+`"`) {
			t.Errorf("box %q links to #%s, which the page lacks", it.text, id)
		}
	}
}

// In a multi-release site the releases' graphs are drawn on one layout
// and the resources page they share holds one drawing: what only one
// release has is a group of its own, for that release (data-r).
func TestMultiReleaseResourceGraph(t *testing.T) {
	page := readTree(t, buildMulti(t))["resources.html"]
	// The whole graph, folded after the chain's.
	whole := strings.Index(page, `<details class="wholegraph">`)
	if whole < 0 {
		t.Fatal("resources.html: no whole graph")
	}
	svgs := regexp.MustCompile(`<svg xmlns`).FindAllStringIndex(page[whole:], -1)
	if len(svgs) != 1 {
		t.Fatalf("resources.html: %d whole graphs, want one for both releases", len(svgs))
	}
	svg := page[whole+svgs[0][0]:]
	svg = svg[:strings.Index(svg, "</svg>")]
	if strings.Contains(svg[:strings.Index(svg, ">")], "data-r") {
		t.Error("the graph is drawn for one release")
	}
	// The newer release's scheduler writes pods/binding; the older's
	// does not.
	own := regexp.MustCompile(`<g data-ends="[0-9 ]+" data-r="1"><title>[^<]*pkg/scheduler writes pods`).FindString(svg)
	if own == "" {
		t.Errorf("no line of the newer release's own for the scheduler's write:\n%s", svg)
	}
}
