package releases

import (
	"github.com/kubewalk/kubewalk/internal/render/diagram"
	"github.com/kubewalk/kubewalk/site"
)

// drawGraphs draws the resource graphs of p's releases, in each of the
// site's langs languages, on one layout (diagram.Graphs: every release's
// drawn on the layout of all of them), and hands them to p for its
// resources pages: the page the releases share (pageshare) then holds
// what their graphs share once, where each release's own layout would
// differ in every coordinate. A release without a graph gets none.
func drawGraphs(p *site.Prepared, langs int) error {
	for l := range langs {
		svgs, err := diagram.Graphs(p.ResourceGraphs(l))
		if err != nil {
			return err
		}
		p.SetResourceGraphs(l, svgs)
	}
	return nil
}
