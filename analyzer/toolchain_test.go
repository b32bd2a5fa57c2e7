package analyzer

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestToolchainError(t *testing.T) {
	for _, c := range []struct {
		goCmd, built string
		fails        bool
	}{
		{"go1.27.3", "go1.26.8", true},
		{"go1.27rc1", "go1.26.8", true},
		{"go1.26.0", "go1.26.8", false},
		{"go1.26.9", "go1.26.8", false}, // a newer patch reads the same language
		{"go1.25.4", "go1.26.8", false},
		{"go1.27.3", "devel go1.28-abcdef", false},
	} {
		err := toolchainError(c.goCmd, c.built)
		if (err != nil) != c.fails {
			t.Errorf("toolchainError(%q, %q) = %v, want an error: %v", c.goCmd, c.built, err, c.fails)
			continue
		}
		if err == nil {
			continue
		}
		if !errors.Is(err, ErrToolchain) {
			t.Errorf("toolchainError(%q, %q) = %v, not ErrToolchain", c.goCmd, c.built, err)
		}
		for _, want := range []string{c.goCmd, c.built, "GOTOOLCHAIN=" + c.goCmd} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("toolchainError(%q, %q) = %q, which does not name %q", c.goCmd, c.built, err, want)
			}
		}
	}
}

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
	if !errors.Is(err, ErrToolchain) {
		t.Fatalf("Load = %v, want ErrToolchain", err)
	}
	for _, want := range []string{"requires Go 1.999.0", "GOTOOLCHAIN=local", "GOTOOLCHAIN=go1.999.0"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Load's error %q does not say %q", err, want)
		}
	}
	if _, _, err := AnalyzeCached(context.Background(), cfg, t.TempDir()); !errors.Is(err, ErrToolchain) {
		t.Errorf("AnalyzeCached = %v, want ErrToolchain", err)
	}
}
