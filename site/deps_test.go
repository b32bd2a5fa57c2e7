package site

import (
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestDependencies holds what the package doc promises of Input: data
// flows one way into site. site does not load Go packages; the packages
// whose values Input takes import neither site, nor the loader, nor an
// HTML renderer, and walkthrough not even html/template. The stage that
// makes a site of several releases (site/releases) imports site, never
// the other way, and no more of the command line than site does; the passes it runs (site/internal/…, such
// as srcmerge, pageshare) hold no site code: they import neither site
// nor the stage.
func TestDependencies(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	const mod = "github.com/kubewalk/kubewalk/"
	producers := []string{"analyzer", "site", "internal/render/codehtml", "internal/render/diagram", "internal/render/prosehtml", "cmd/kubewalk/internal/pipeline", "cmd/kubewalk/internal/sitebuild"}
	for pkg, banned := range map[string][]string{
		"site":                     {"analyzer", "cmd/kubewalk/internal/pipeline", "cmd/kubewalk/internal/sitebuild", "site/releases"},
		"site/releases":            {"analyzer", "cmd/kubewalk/internal/pipeline", "cmd/kubewalk/internal/sitebuild"},
		"site/internal/...":        {"site", "site/releases", "analyzer", "cmd/kubewalk/internal/pipeline", "cmd/kubewalk/internal/sitebuild"},
		"walkthrough":              producers,
		"internal/derive/reldiff":  producers,
		"internal/derive/trace":    producers,
		"internal/derive/explain":  producers,
		"internal/derive/coverage": producers,
		"internal/derive/chain":    producers,
		"internal/derive/runlog":   producers,
		"internal/derive/cited":    producers,
		"internal/derive/gates":    producers,
		"internal/disk/publish":    producers,
	} {
		out, err := exec.Command("go", "list", "-deps", "../"+pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		deps := strings.Fields(string(out))
		// walkthrough hands its documents over as data: it makes no HTML
		// (internal/render/prosehtml does, with a page's link rules).
		if pkg == "walkthrough" && slices.Contains(deps, "html/template") {
			t.Errorf("walkthrough depends on html/template")
		}
		for _, b := range banned {
			if slices.Contains(deps, mod+b) {
				t.Errorf("%s depends on %s", pkg, b)
			}
		}
	}
}

// TestCommandsWithoutSite: the commands that build no site (explain,
// record, export, check, list, trace, diff) load walkthroughs as data and
// never name the site's package, its URL rules or its renderer: their
// files import neither site, nor sitebuild, nor a renderer. (That the
// packages they use link none of it is cmd/kubewalk/internal/pipeline's
// TestDependenciesWithoutSite.)
func TestCommandsWithoutSite(t *testing.T) {
	const mod = "github.com/kubewalk/kubewalk/"
	for _, cmd := range []string{"explain", "record", "export", "check", "list", "trace", "diff"} {
		file := filepath.Join("..", "cmd", "kubewalk", cmd+".go")
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if p == mod+"site" || strings.HasPrefix(p, mod+"site/") || p == mod+"cmd/kubewalk/internal/sitebuild" || strings.HasPrefix(p, mod+"internal/render/") {
				t.Errorf("%s imports %s", file, p)
			}
		}
	}
}
