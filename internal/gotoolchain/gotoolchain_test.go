package gotoolchain

import (
	"errors"
	"strings"
	"testing"
)

func TestRefused(t *testing.T) {
	// As `go mod download -json` reports it, and as go list writes it.
	for _, msg := range []string{
		"k8s.io/kubernetes@v1.38.0-beta.0 requires go >= 1.27.0 (running go 1.26.8; GOTOOLCHAIN=local)",
		"go: go.mod requires go >= 1.27.0 (running go 1.26.8; GOTOOLCHAIN=local)\n",
	} {
		err := Refused("k8s.io/kubernetes@v1.38.0-beta.0", msg)
		if !errors.Is(err, ErrTooOld) {
			t.Fatalf("Refused(%q) = %v, want ErrTooOld", msg, err)
		}
		for _, want := range []string{"k8s.io/kubernetes@v1.38.0-beta.0 requires Go 1.27.0", "go1.26.8 with GOTOOLCHAIN=local", "GOTOOLCHAIN=go1.27.0 make build"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("Refused(%q) = %q, which does not say %q", msg, err, want)
			}
		}
	}
	if err := Refused("x", "verifying module: checksum mismatch"); err != nil {
		t.Errorf("Refused(another error) = %v, want nil", err)
	}
}

func TestNewer(t *testing.T) {
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
		err := Newer(c.goCmd, c.built)
		if (err != nil) != c.fails {
			t.Errorf("Newer(%q, %q) = %v, want an error: %v", c.goCmd, c.built, err, c.fails)
			continue
		}
		if err == nil {
			continue
		}
		if !errors.Is(err, ErrTooOld) {
			t.Errorf("Newer(%q, %q) = %v, not ErrTooOld", c.goCmd, c.built, err)
		}
		for _, want := range []string{c.goCmd, c.built, "GOTOOLCHAIN=" + c.goCmd} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("Newer(%q, %q) = %q, which does not name %q", c.goCmd, c.built, err, want)
			}
		}
	}
}
