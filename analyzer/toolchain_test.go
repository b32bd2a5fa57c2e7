package analyzer

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubewalk/kubewalk/internal/gotoolchain"
)

// A tree whose go.mod asks for a Go the go command may not switch to
// fails before anything is listed, saying which Go it needs and how to
// run kubewalk with it (not "exit status 1").
func TestLoadTreeNeedsNewerGo(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/m\n\ngo 1.999.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "m.go"), []byte("package m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOTOOLCHAIN", "local")
	cfg := Config{Dir: dir, Roots: []string{"example.com/m"}, MemoryLimit: -1}
	_, err := Load(context.Background(), cfg)
	if !errors.Is(err, gotoolchain.ErrTooOld) {
		t.Fatalf("Load = %v, want gotoolchain.ErrTooOld", err)
	}
	for _, want := range []string{"requires Go 1.999.0", "GOTOOLCHAIN=local", "GOTOOLCHAIN=go1.999.0"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Load's error %q does not say %q", err, want)
		}
	}
	if _, _, err := AnalyzeCached(context.Background(), cfg, t.TempDir()); !errors.Is(err, gotoolchain.ErrTooOld) {
		t.Errorf("AnalyzeCached = %v, want gotoolchain.ErrTooOld", err)
	}
}
