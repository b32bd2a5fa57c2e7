package pipeline

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDependenciesWithoutSite holds what the package doc promises: the
// part of the command line that builds no site — this package, and
// codetour, which export writes with it — links neither site nor what
// only a site needs: the renderers under internal/render, chroma's
// highlighter, Graphviz. (cmd/kubewalk is one program with a build
// command, so the promise is the library packages'.)
func TestDependenciesWithoutSite(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	const mod = "github.com/kubewalk/kubewalk/"
	// Each with the packages under it.
	banned := []string{
		mod + "site",
		mod + "cmd/kubewalk/internal/sitebuild",
		mod + "internal/render",
		"github.com/alecthomas/chroma",
		"github.com/goccy/go-graphviz",
	}
	for _, pkg := range []string{".", "../codetour"} {
		out, err := exec.Command("go", "list", "-deps", pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		deps := strings.Fields(string(out))
		if len(deps) < 2 {
			t.Fatalf("go list -deps %s listed %d packages", pkg, len(deps))
		}
		for _, d := range deps {
			for _, b := range banned {
				if d == b || strings.HasPrefix(d, b+"/") {
					t.Errorf("%s depends on %s", pkg, d)
				}
			}
		}
	}
}
