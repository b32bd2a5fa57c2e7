package site

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestDependencies holds what the package doc promises of Input: data
// flows one way into site. site does not load Go packages; the packages
// whose values Input takes import neither site, nor the loader, nor an
// HTML renderer.
func TestDependencies(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	const mod = "github.com/kubewalk/kubewalk/"
	producers := []string{"analyzer", "site", "internal/render/codehtml", "internal/render/diagram", "internal/app/pipeline"}
	for pkg, banned := range map[string][]string{
		"site":                    {"analyzer", "internal/app/pipeline"},
		"walkthrough":             producers,
		"internal/derive/reldiff": producers,
		"internal/derive/trace":   producers,
	} {
		out, err := exec.Command("go", "list", "-deps", "../"+pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		deps := strings.Fields(string(out))
		for _, b := range banned {
			if slices.Contains(deps, mod+b) {
				t.Errorf("%s depends on %s", pkg, b)
			}
		}
	}
}
