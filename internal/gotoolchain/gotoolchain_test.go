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
