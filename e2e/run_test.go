//go:build e2e

package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// run is kubewalk with more say than kubewalk gives: env is added to the
// environment, cache replaces the shared cache when not "", and the exit
// is returned rather than failed on.
type run struct {
	env   []string
	cache string
}

// do runs the binary and returns its streams and exit code (-1 when it
// did not run to an exit: killed, or not started).
func (r run) do(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cache := r.cache
	if cache == "" {
		cache = cacheDir(t)
	}
	var out, errb bytes.Buffer
	cmd := exec.Command(bin(t), append([]string{"--cache-dir", cache}, args...)...)
	cmd.Env = append(os.Environ(), r.env...)
	cmd.Stdin = strings.NewReader("")
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code = cmd.ProcessState.ExitCode()
	if err != nil && cmd.ProcessState == nil {
		t.Fatalf("kubewalk %s: %v", strings.Join(args, " "), err)
	}
	return out.String(), errb.String(), code
}

// ok runs the binary and fails the test on a non-zero exit.
func (r run) ok(t *testing.T, args ...string) (stdout, stderr string) {
	t.Helper()
	stdout, stderr, code := r.do(t, args...)
	if code != 0 {
		t.Fatalf("kubewalk %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, stdout, stderr)
	}
	return stdout, stderr
}

// tagName names a subtest of release tag, "" being the default release.
func tagName(tag string) string {
	if tag == "" {
		return "default"
	}
	return tag
}
