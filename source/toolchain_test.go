package source

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/mod/module"

	"github.com/kubewalk/kubewalk/internal/gotoolchain"
)

// A tag whose go.mod asks for a newer Go than the go command may use
// (v1.38 asks for Go 1.27) is not "unreachable": the error says which Go
// it needs and how to run kubewalk with it.
func TestGoproxyTagNeedsNewerGo(t *testing.T) {
	proxy, src := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(src, "go.mod"), []byte("module k8s.io/kubernetes\n\ngo 1.999.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "doc.go"), []byte("package kubernetes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const tag = "v1.99.0"
	if err := addModule(proxy, module.Version{Path: kubernetesModule, Version: tag}, src, map[string]any{"Version": tag, "Time": "2024-08-13T07:28:48Z"}); err != nil {
		t.Fatal(err)
	}
	opts := proxyOptions(t, t.TempDir(), tag)
	for i, e := range opts.Env {
		if strings.HasPrefix(e, "GOPROXY=") {
			opts.Env[i] = "GOPROXY=file://" + filepath.ToSlash(proxy)
		}
	}
	_, err := Fetch(context.Background(), opts)
	if !errors.Is(err, gotoolchain.ErrTooOld) || errors.Is(err, ErrUnreachable) {
		t.Fatalf("Fetch = %v, want gotoolchain.ErrTooOld and not ErrUnreachable", err)
	}
	for _, want := range []string{"k8s.io/kubernetes@v1.99.0 requires Go 1.999.0", "GOTOOLCHAIN=go1.999.0"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Fetch's error %q does not say %q", err, want)
		}
	}
}
