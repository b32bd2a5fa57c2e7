package serve

import (
	"bufio"
	"context"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/testsupport/fakeresolver"
	"github.com/kubewalk/kubewalk/site"
	"github.com/kubewalk/kubewalk/source"
	"github.com/kubewalk/kubewalk/walkthrough"
)

// A small tree: one Go file with one function, the way the analyzer would
// describe it.
const (
	fixtureTag  = "v1.36.3"
	fixtureFile = "pkg/controller/deployment/sync.go"
	fixtureSym  = "k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.getNewReplicaSet"
	fixtureSrc  = `package deployment

// getNewReplicaSet returns the new ReplicaSet, creating it when needed.
func (dc *DeploymentController) getNewReplicaSet() error {
	_, err := dc.client.AppsV1().ReplicaSets(ns).Create(ctx, rs, metav1.CreateOptions{})
	return err
}
`
)

func fixtureSymbol() fact.Symbol {
	return fact.Symbol{Name: fixtureSym, Kind: "method",
		Decl: fact.Location{Path: fixtureFile, StartLine: 3, EndLine: 7},
		Body: fact.Location{Path: fixtureFile, StartLine: 4, EndLine: 7}}
}

// walkthroughMD is a walkthrough with an inline reference and an excerpt;
// n varies its text.
func walkthroughMD(n int) string {
	return fmt.Sprintf(`---
title: Fixture walkthrough %d
participants: [a, b]
---

Intro %d.

## The controller creates a ReplicaSet {from="a" to="b" label="create"}

[getNewReplicaSet](go:%s) creates it.

`+"```excerpt\nref: %s\n```\n", n, n, fixtureSym, fixtureSym)
}

// fixtureBuild returns a Build function that renders the walkthroughs in
// dir into a whole site with site.Build, as `kubewalk serve` does (less
// the analysis, which serve never repeats).
func fixtureBuild(dir string) func(ctx context.Context, out string) error {
	facts := &fact.Facts{Schema: fact.SchemaVersion, Tag: fixtureTag}
	perma := func(p string, from, to int) string { return source.Permalink(fixtureTag, p, from, to) }
	return func(ctx context.Context, out string) error {
		docs, err := walkthrough.Load(os.DirFS(dir), ".", "en", walkthrough.Options{
			Resolver: fakeresolver.New(facts, func(string) string { return fixtureSrc }, fixtureSymbol()),
		})
		if err != nil {
			return err
		}
		_, err = site.Build(ctx, site.Input{
			Tag: fixtureTag, Backend: "dir", Lang: "en", Facts: facts,
			Symbols: []fact.Symbol{fixtureSymbol()}, Docs: docs,
			ReadFile: func(p string) ([]byte, error) {
				if p == fixtureFile {
					return []byte(fixtureSrc), nil
				}
				return nil, fmt.Errorf("%s: %w", p, fs.ErrNotExist)
			},
		}, site.Options{Out: out, SourceURL: perma, Workers: 2})
		return err
	}
}

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// sse is a client of the event stream.
type sse struct {
	resp *http.Response
	r    *bufio.Reader
}

func dialEvents(t testing.TB, base string) *sse {
	t.Helper()
	resp, err := http.Get(base + Prefix + "events")
	if err != nil {
		t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("events content type %q", ct)
	}
	return &sse{resp: resp, r: bufio.NewReader(resp.Body)}
}

// next returns the next event's name and data.
func (s *sse) next() (event, data string, err error) {
	for {
		line, err := s.r.ReadString('\n')
		if err != nil {
			return "", "", err
		}
		line = strings.TrimRight(line, "\n")
		switch {
		case strings.HasPrefix(line, "event: "):
			event = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			data = strings.TrimPrefix(line, "data: ")
		case line == "" && event != "":
			return event, data, nil
		}
	}
}

// waitFor reads events until one named name arrives, with a deadline.
func (s *sse) waitFor(t testing.TB, name string, timeout time.Duration) string {
	t.Helper()
	type ev struct {
		data string
		err  error
	}
	ch := make(chan ev, 1)
	go func() {
		for {
			n, d, err := s.next()
			if err != nil || n == name {
				ch <- ev{d, err}
				return
			}
		}
	}()
	select {
	case e := <-ch:
		if e.err != nil {
			t.Fatalf("event stream: %v", e.err)
		}
		return e.data
	case <-time.After(timeout):
		t.Fatalf("no %q event within %s", name, timeout)
		return ""
	}
}

func (s *sse) close() { s.resp.Body.Close() }

func mkdir(t testing.TB) string {
	t.Helper()
	d := filepath.Join(t.TempDir(), "walkthroughs")
	if err := os.Mkdir(d, 0o755); err != nil {
		t.Fatal(err)
	}
	return d
}
