package analyzer

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The facts name the platform the tree was loaded for, and describe
// that platform's files only: loaded for windows/arm64, a _windows.go
// file is analysed and a _linux.go one is not.
func TestPlatform(t *testing.T) {
	const want = "windows/arm64"
	goos, goarch, _ := strings.Cut(want, "/")
	res := analyzeModule(t, map[string]string{
		"p/p.go":         "package p\n\nfunc Common() {}\n",
		"p/p_windows.go": "package p\n\nfunc OnWindows() {}\n",
		"p/p_linux.go":   "package p\n\nfunc OnLinux() {}\n",
	}, "GOOS="+goos, "GOARCH="+goarch)
	if got := res.Facts().Platform; got != want {
		t.Errorf("Platform = %q, want %s", got, want)
	}
	for name, want := range map[string]bool{"Common": true, "OnWindows": true, "OnLinux": false} {
		if _, ok := res.Lookup("example.com/m/p." + name); ok != want {
			t.Errorf("%s indexed: %v, want %v", name, ok, want)
		}
	}
}

// analyzeModule analyses every package of module example.com/m made of
// files (by slash path), offline, with env added to the go command's.
func analyzeModule(t *testing.T, files map[string]string, env ...string) *Result {
	t.Helper()
	dir := t.TempDir()
	files["go.mod"] = "module example.com/m\n\ngo 1.22\n"
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := Analyze(context.Background(), Config{
		Dir:   dir,
		Env:   append([]string{"GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off"}, env...),
		Roots: []string{"./..."},
	})
	if err != nil {
		t.Fatal(err)
	}
	return res
}
