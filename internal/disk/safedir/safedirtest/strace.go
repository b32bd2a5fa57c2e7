// Package safedirtest runs a process under strace(1), to see which files
// and directories it synced before the rename that published them, or to
// stop it at a system call and kill it there.
package safedirtest

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Wrap returns cmd run under strace -f with straceArgs. The test is
// skipped where there is no strace, or strace cannot trace (no ptrace in
// a sandbox).
func Wrap(t testing.TB, cmd *exec.Cmd, straceArgs ...string) *exec.Cmd {
	t.Helper()
	strace, err := exec.LookPath("strace")
	if err != nil {
		t.Skip("no strace: cannot watch the system calls of a process")
	}
	if err := exec.Command(strace, "-f", "-qq", "-o", "/dev/null", "true").Run(); err != nil {
		t.Skipf("strace cannot trace here: %v", err)
	}
	args := append([]string{"-f", "-qq"}, straceArgs...)
	w := exec.Command(strace, append(args, cmd.Args...)...)
	w.Env, w.Dir, w.Stdin, w.Stdout, w.Stderr = cmd.Env, cmd.Dir, cmd.Stdin, cmd.Stdout, cmd.Stderr
	return w
}

// TraceSyncs is the strace arguments that log, into log, what Synced
// reads.
func TraceSyncs(log string) []string {
	return []string{"-o", log, "-e", "trace=fsync,rename,renameat,renameat2", "-e", "signal=none", "-y"}
}

// Synced reads a log of TraceSyncs and returns each path fsynced, true
// when it was before the first rename onto target.
func Synced(t testing.TB, log, target string) map[string]bool {
	t.Helper()
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	// strace writes < > " \ in a path as \74 \76 \" \\.
	unescape := strings.NewReplacer(`\74`, "<", `\76`, ">", `\"`, `"`, `\\`, `\`)
	synced := map[string]bool{}
	published := false
	for _, line := range strings.Split(string(b), "\n") {
		switch {
		case strings.Contains(line, "fsync("):
			// 12 fsync(7</tmp/…/x.html>) = 0, or 12 fsync(7</…> <unfinished ...>
			_, p, ok := strings.Cut(line, "<")
			if !ok {
				continue
			}
			if i := strings.LastIndex(p, "> <unfinished"); i >= 0 {
				synced[unescape.Replace(p[:i])] = !published
			} else if i := strings.LastIndex(p, ">) = "); i >= 0 {
				synced[unescape.Replace(p[:i])] = !published
			}
		case strings.Contains(line, "rename") && strings.Contains(line, `"`+target+`"`):
			published = true
		}
	}
	if !published {
		t.Fatalf("no rename onto %s in the trace", target)
	}
	return synced
}
