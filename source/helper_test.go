package source

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

// helperEnv makes the test binary run one Fetch and exit (TestMain checks
// it), so tests can run kubewalk-like processes side by side and kill them.
const helperEnv = "KUBEWALK_SOURCE_TEST_HELPER"

type helperSpec struct {
	Tag, Source, Repo, CacheDir, GoCommand string
	Env                                    []string
}

func helperMain(spec string) int {
	var s helperSpec
	if err := json.Unmarshal([]byte(spec), &s); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	tree, err := Fetch(context.Background(), Options{
		Tag: s.Tag, Source: s.Source, Repo: s.Repo, CacheDir: s.CacheDir, GoCommand: s.GoCommand, Env: s.Env,
		Progress: os.Stderr,
		Logger:   slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug})),
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	json.NewEncoder(os.Stdout).Encode(tree)
	return 0
}

// helperCmd is a process of this test binary that fetches per spec.
func helperCmd(t testing.TB, s helperSpec) (*exec.Cmd, *bytes.Buffer) {
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+string(b))
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &logWriter{t: t, prefix: "helper: "}
	return cmd, &out
}

// logWriter sends what it is given to t.Log, a line at a time, and keeps
// it for assertions.
type logWriter struct {
	t      testing.TB
	prefix string
	mu     sync.Mutex
	all    strings.Builder
}

func (w *logWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.all.Write(p)
	for _, line := range strings.Split(strings.TrimRight(string(p), "\n"), "\n") {
		w.t.Log(w.prefix + line)
	}
	return len(p), nil
}

func (w *logWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.all.String()
}

func testLogger(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(&logWriter{t: t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// capturingLogger logs warnings and above into the returned writer.
func capturingLogger(t testing.TB) (*slog.Logger, *logWriter) {
	w := &logWriter{t: t}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelWarn})), w
}
