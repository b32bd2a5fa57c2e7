package source

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestExpandRange(t *testing.T) {
	rels := []string{"v1.28.15", "v1.29.0", "v1.29.6", "v1.30.14", "v1.30.2", "v1.32.13", "v1.33.13", "v1.37.0-alpha.1", "v1.37.2", "v1.37.10"}
	for _, c := range []struct {
		spec string
		want []string
		err  error
	}{
		{"v1.29..v1.33", []string{"v1.29.6", "v1.30.14", "v1.32.13", "v1.33.13"}, nil}, // v1.31 has none: left out
		{"v1.29.0..v1.30.2", []string{"v1.29.6", "v1.30.14"}, nil},                     // ends are read as minors
		{"v1.37..v1.37", []string{"v1.37.10"}, nil},                                    // semver, not string order; no pre-release
		{"v1.40..v1.41", nil, ErrTagNotFound},
		{"v1.33..v1.29", nil, ErrInvalidTag},
		{"v1.29", nil, ErrInvalidTag},
		{"1.29..1.30", nil, ErrInvalidTag},
		{"v2.1..v2.3", nil, ErrInvalidTag},
	} {
		got, err := ExpandRange(c.spec, rels)
		if !errors.Is(err, c.err) {
			t.Errorf("%s: err = %v, want %v", c.spec, err, c.err)
		}
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.spec, diff)
		}
	}
}

// Releases lists what the proxy serves, pre-releases left out; a proxy
// that cannot be reached is ErrUnreachable.
func TestReleases(t *testing.T) {
	got, err := Releases(t.Context(), proxyOptions(t, t.TempDir(), ""))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"v1.30.0", "v1.31.0"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	opts := proxyOptions(t, t.TempDir(), "")
	opts.Env = append(opts.Env, "GOPROXY=file:///nonexistent/proxy")
	if _, err := Releases(t.Context(), opts); !errors.Is(err, ErrUnreachable) {
		t.Errorf("unreachable proxy: err = %v", err)
	}
}
