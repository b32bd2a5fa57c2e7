//go:build e2e

package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// bin returns the kubewalk binary under test, or skips.
func bin(t *testing.T) string {
	t.Helper()
	b := os.Getenv("KUBEWALK_BIN")
	if b == "" {
		t.Skip("KUBEWALK_BIN not set (make e2e sets it)")
	}
	return b
}

// cacheDir is the cache every e2e test shares.
func cacheDir(t *testing.T) string {
	t.Helper()
	if d := os.Getenv("KUBEWALK_E2E_CACHE"); d != "" {
		return d
	}
	return t.TempDir()
}

// kubewalk runs the binary with the shared cache and fails the test on a
// non-zero exit, showing both streams.
func kubewalk(t *testing.T, args ...string) (stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	args = append([]string{"--cache-dir", cacheDir(t)}, args...)
	cmd := exec.Command(bin(t), args...)
	cmd.Stdin = strings.NewReader("")
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("kubewalk %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, out.String(), errb.String())
	}
	return out.String(), errb.String()
}

// kubewalkJSON runs the binary and decodes its standard output into v.
func kubewalkJSON(t *testing.T, v any, args ...string) {
	t.Helper()
	out, _ := kubewalk(t, args...)
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatalf("kubewalk %s: output is not JSON: %v", strings.Join(args, " "), err)
	}
}
