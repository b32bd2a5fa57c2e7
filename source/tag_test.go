package source

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNearest(t *testing.T) {
	versions := []string{"v1.13.0", "v1.29.6", "v1.30.4", "v1.31.0", "v1.31.14", "v1.36.1", "v1.36.3", "v1.37.0-alpha.1", "v1.36.3", "not-a-tag", "v0.31.0"}
	for _, tc := range []struct {
		tag  string
		want []string
	}{
		{"v1.31.5", []string{"v1.31.0", "v1.31.14", "v1.36.3"}},
		{"v1.36.9", []string{"v1.36.3"}},
		{"v1.10.0", []string{"v1.13.0", "v1.36.3"}},
		{"v1.36.2", []string{"v1.36.1", "v1.36.3"}},
		{"v1.37.0-alpha.2", []string{"v1.37.0-alpha.1"}},
		{"v1.37.0-alpha.0", []string{"v1.36.3", "v1.37.0-alpha.1"}},
	} {
		if diff := cmp.Diff(tc.want, nearest(tc.tag, versions)); diff != "" {
			t.Errorf("nearest(%s) (-want +got):\n%s", tc.tag, diff)
		}
	}
	if got := nearest("v1.2.3", nil); got != nil {
		t.Errorf("nearest of none = %v", got)
	}
}

func TestCheckTag(t *testing.T) {
	for tag, ok := range map[string]bool{
		"v1.36.3": true, "v1.37.0-alpha.1": true, "v1.37.0-rc.0": true,
		"1.36.3": false, "v1.36": false, "v2.0.0": false, "v0.36.3": false, "v1.36.3+build": false, "": false, "master": false,
	} {
		if err := checkTag(tag); (err == nil) != ok || (err != nil && !errors.Is(err, ErrInvalidTag)) {
			t.Errorf("checkTag(%q) = %v", tag, err)
		}
	}
	if got := stagingVersion("v1.37.0-alpha.1"); got != "v0.37.0-alpha.1" {
		t.Errorf("stagingVersion = %s", got)
	}
}

func TestPermalinkEscapes(t *testing.T) {
	for _, tt := range []struct {
		path string
		from int
		to   int
		want string
	}{
		{"pkg/controller/deployment/sync.go", 232, 232, Repository + "/blob/v1.31.0/pkg/controller/deployment/sync.go#L232"},
		{"pkg/a/b.go", 3, 9, Repository + "/blob/v1.31.0/pkg/a/b.go#L3-L9"},
		{"pkg/a/b.go", 0, 0, Repository + "/blob/v1.31.0/pkg/a/b.go"},
		// A hostile name keeps its "#", "?" and "%" in the path.
		{`pkg/odd/x<script>&'"#?%.go`, 1, 1, Repository + "/blob/v1.31.0/pkg/odd/x%3Cscript%3E&%27%22%23%3F%25.go#L1"},
	} {
		if got := Permalink("v1.31.0", tt.path, tt.from, tt.to); got != tt.want {
			t.Errorf("Permalink(%q, %d, %d) = %s, want %s", tt.path, tt.from, tt.to, got, tt.want)
		}
	}
}
