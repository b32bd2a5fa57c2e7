package analyzer

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kubewalk/kubewalk/internal/testsupport/testfs"
)

// analyzeKubelikeWith analyzes a copy of testdata/kubelike whose
// pkg/controller/deployment/sync.go holds src.
func analyzeKubelikeWith(t *testing.T, src string) (*Result, error) {
	t.Helper()
	dir := t.TempDir()
	if err := testfs.CopyTree("testdata/kubelike", dir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pkg", "controller", "deployment", "sync.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return Analyze(context.Background(), Config{
		Dir:   dir,
		Env:   []string{"GOWORK=" + filepath.Join(dir, "go.work"), "GOFLAGS=-mod=readonly", "GOPROXY=off"},
		Roots: []string{"./pkg/..."},
	})
}

// A Go file of the tree that does not parse is an error naming the file,
// never a panic. An empty file has no package clause, so go/parser gives
// its File no position: the index once looked its name up through that
// position and dereferenced nil.
func TestUnparsableFile(t *testing.T) {
	for name, src := range map[string]string{
		"empty":        "",
		"package only": "package",
		"syntax error": "package deployment\n\nfunc (\n",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := analyzeKubelikeWith(t, src)
			if err == nil || !strings.HasPrefix(err.Error(), "pkg/controller/deployment/sync.go:") {
				t.Errorf("Analyze: %v; want an error starting with pkg/controller/deployment/sync.go:", err)
			}
		})
	}
}

// A file that parses but does not type-check with its package (another
// package clause) is a type error like any other: the package is
// incomplete, the analysis goes on.
func TestFileOfAnotherPackage(t *testing.T) {
	res, err := analyzeKubelikeWith(t, "package other\n")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(res.Facts().Incomplete, "k8s.io/kubernetes/pkg/controller/deployment") {
		t.Errorf("Incomplete = %v, want the deployment controller's package in it", res.Facts().Incomplete)
	}
}
