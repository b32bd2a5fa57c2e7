package main

import (
	"bytes"
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kubewalk/kubewalk/internal/derive/explain"
)

// syncBuffer is a bytes.Buffer the command writes while the test reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// waitFor waits until out holds want.
func waitFor(t *testing.T, out *syncBuffer, want string, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !strings.Contains(out.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("after %s the output still lacks %q:\n%s", d, want, out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// explainFixtureArgs are the arguments of kubewalk explain over the
// analyzer's fixture, cloned with go-git, offline, with a walkthrough
// whose step explains ScalingReplicaSet.
func explainFixtureArgs(t *testing.T) []string {
	if testing.Short() {
		t.Skip("loads packages")
	}
	const tag = "v1.99.0"
	repo, wdir := gitFixture(t, tag, explainWalkthrough)
	return []string{"--cache-dir", t.TempDir(), "--quiet", "explain", "--tag", tag, "--source", "git", "--repo", repo, "--no-builtin", "--walkthroughs", wdir}
}

// TestExplainStreamsAWatch feeds explain a `kubectl get events --watch`
// through a pipe, a line at a time, and waits for each line's explanation
// before writing the next: explain used to read all of its input first,
// so it printed nothing until kubectl ended, which a watch never does.
// A hostile event message comes out with its escape sequences spelled
// out.
func TestExplainStreamsAWatch(t *testing.T) {
	args := explainFixtureArgs(t)
	pr, pw := io.Pipe()
	defer pw.Close()
	var stdout, stderr syncBuffer
	code := make(chan int, 1)
	go func() { code <- run(context.Background(), args, pr, &stdout, &stderr) }()

	io.WriteString(pw, "LAST SEEN   TYPE     REASON              OBJECT                        MESSAGE\n")
	io.WriteString(pw, "0s          Normal   ScalingReplicaSet   deployment/nginx-deployment   Scaled up replica set nginx-deployment-cbdccf466 to 3\n")
	// The first wait includes fetching and analysing the fixture.
	waitFor(t, &stdout, "2: 0s          Normal   ScalingReplicaSet", 3*time.Minute)
	io.WriteString(pw, "0s          Normal   ScalingReplicaSet   deployment/evil   \x1b]0;PWNED\x07\x1b[2J\n")
	waitFor(t, &stdout, `3: 0s          Normal   ScalingReplicaSet   deployment/evil   \x1b]0;PWNED\x07\x1b[2J`, 30*time.Second)
	if strings.Contains(stdout.String(), "explained\n") {
		t.Errorf("the summary came before the end of the input:\n%s", stdout.String())
	}
	pw.Close()
	select {
	case c := <-code:
		if c != exitOK {
			t.Fatalf("exit %d: %s", c, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("explain did not end with its input")
	}
	out := stdout.String()
	if !strings.HasSuffix(out, "\n2 of 2 explained\n") || strings.Contains(out, "\x1b") {
		t.Errorf("output:\n%q", out)
	}
}

// TestExplainCtrlCWhileWaiting: Ctrl-C ends explain while it waits for
// input that does not come (a quiet watch).
func TestExplainCtrlCWhileWaiting(t *testing.T) {
	args := append(explainFixtureArgs(t), "-o", "json")
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	defer pw.Close()
	var stdout, stderr syncBuffer
	code := make(chan int, 1)
	go func() { code <- run(ctx, args, pr, &stdout, &stderr) }()
	io.WriteString(pw, `{"verb":"create","requestURI":"/apis/apps/v1/namespaces/default/replicasets"}`+"\n")
	waitFor(t, &stdout, `"verb": "create"`, 3*time.Minute)
	cancel()
	select {
	case <-code:
	case <-time.After(10 * time.Second):
		t.Fatal("explain did not end on Ctrl-C")
	}
	if out := stdout.String(); !strings.HasPrefix(out, "[\n") || !strings.HasSuffix(out, "\n]\n") {
		t.Errorf("the JSON array was not closed:\n%s", out)
	}
}

// TestJSONArrayWriter: explanations written one at a time are the bytes
// writeJSON writes for all of them at once.
func TestJSONArrayWriter(t *testing.T) {
	exs := explain.New(nil, nil, explain.Options{}).Explain(explain.Parse([]byte(
		"0s   Normal   Killing   pod/p   Stopping <container> & \"x\"\n{\"verb\":\"get\",\"requestURI\":\"/api\"}\njunk\n")))
	for n := range len(exs) + 1 {
		var want, got bytes.Buffer
		all := exs[:n]
		if n == 0 {
			all = []explain.Explanation{}
		}
		if err := writeJSON(&want, all); err != nil {
			t.Fatal(err)
		}
		j := &jsonArrayWriter{w: &got}
		for _, ex := range exs[:n] {
			if err := j.Write(ex); err != nil {
				t.Fatal(err)
			}
		}
		if err := j.Close(); err != nil {
			t.Fatal(err)
		}
		if want.String() != got.String() {
			t.Errorf("%d explanations:\nwant %s\ngot  %s", n, want.String(), got.String())
		}
	}
}
