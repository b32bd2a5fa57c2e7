package releases

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubewalk/kubewalk/site"
)

// TestBuild: two releases of nothing but their tags make a site with the
// list of releases at its root, newest first, the assets (releases.js
// with them) and a subtree per release; one release builds flat.
func TestBuild(t *testing.T) {
	in := func(tag string) site.Release {
		return site.Release{Input: site.Input{Tag: tag, ReadFile: func(string) ([]byte, error) { return nil, errors.New("no files") }}}
	}
	opts := site.Options{SourceURL: func(p string, from, to int) string { return "https://example.com/" + p }}
	opts.Out = filepath.Join(t.TempDir(), "public")
	if _, err := Build(context.Background(), []site.Release{in("v1.9.0"), in("v1.10.0")}, opts); err != nil {
		t.Fatal(err)
	}
	index, err := os.ReadFile(filepath.Join(opts.Out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if i, j := strings.Index(string(index), `href="v1.10.0/index.html"`), strings.Index(string(index), `href="v1.9.0/index.html"`); i < 0 || j < i {
		t.Errorf("index.html lists the releases at %d, %d, want v1.10.0 first:\n%s", i, j, index)
	}
	for _, f := range []string{"assets/site.js", "assets/releases.js", ".kubewalk-site", "v1.10.0/index.html", "v1.9.0/index.html"} {
		if _, err := os.Stat(filepath.Join(opts.Out, f)); err != nil {
			t.Error(err)
		}
	}
	opts.Out = filepath.Join(t.TempDir(), "one")
	if _, err := Build(context.Background(), []site.Release{in("v1.9.0")}, opts); err != nil {
		t.Fatal(err)
	}
	for f, want := range map[string]bool{"index.html": true, "assets/releases.js": false, "v1.9.0": false} {
		if _, err := os.Stat(filepath.Join(opts.Out, f)); (err == nil) != want {
			t.Errorf("one release: %s exists: %v, want %v", f, err == nil, want)
		}
	}
}
