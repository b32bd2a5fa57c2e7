package searchindex

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestTerms: words as search.js splits a query, Hangul as bigrams.
func TestTerms(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"Successfully assigned default/nginx to node1", []string{"successfully", "assigned", "default", "nginx", "to", "node1"}},
		{"Back-off restarting failed container %s", []string{"back", "off", "restarting", "failed", "container"}},
		{"pkg/controller/deployment/sync.go:120", []string{"pkg", "controller", "deployment", "sync", "go", "120"}},
		// Hangul as bigrams, so a particle glued on ("를") still leaves
		// the noun's bigrams; a lone syllable is itself.
		{"디플로이먼트를 봅니다", []string{"디플", "플로", "로이", "이먼", "먼트", "트를", "봅니", "니다"}},
		{"파드 a 및 RunPodSandbox를", []string{"파드", "및", "runpodsandbox", "를"}},
	} {
		if diff := cmp.Diff(c.want, Terms(c.text)); diff != "" {
			t.Errorf("Terms(%q) (-want +got):\n%s", c.text, diff)
		}
	}
}
