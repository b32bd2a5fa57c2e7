package main

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/cmd/kubewalk/internal/pipeline"
	"github.com/kubewalk/kubewalk/internal/derive/trace"
	"github.com/kubewalk/kubewalk/record"
	"github.com/kubewalk/kubewalk/walkthrough"
)

// TestCheckWithNothingToCheck: check of a --walkthroughs directory holding
// no walkthrough at its top level is a usage error naming the files it
// does not read, before any release is fetched; it printed "ok" and exited
// 0, and CI passed having checked nothing.
func TestCheckWithNothingToCheck(t *testing.T) {
	nowhere := filepath.Join(t.TempDir(), "nowhere") // a fetch would fail with exit 1
	for name, files := range map[string]map[string]string{
		"empty":        {},
		"subdirectory": {"sub/broken.md": "no front matter"},
		"upper case":   {"Deployment.MD": "---\ntitle: T\n---\n## S\n"},
	} {
		dir := t.TempDir()
		for f, data := range files {
			p := filepath.Join(dir, f)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		code, stdout, stderr := kw(t, "--cache-dir", t.TempDir(), "check", "--source", nowhere, "--no-builtin", "--walkthroughs", dir)
		if code != exitUsage || !strings.Contains(stderr, "no walkthrough to check") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want a usage error", name, code, stdout, stderr)
		}
		for f := range files {
			if !strings.Contains(stderr, f) {
				t.Errorf("%s: stderr %q does not name %s", name, stderr, f)
			}
		}
	}
}

// TestTerminalEscapesSpelledOut: a walkthrough's file name or front matter
// reaches the terminal with its control characters spelled out; a file
// named a\e]0;PWNED\a.md retitled the terminal.
func TestTerminalEscapesSpelledOut(t *testing.T) {
	named, titled := t.TempDir(), t.TempDir()
	write := func(dir, name, data string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(named, "a\x1b]0;PWNED\x07.md", "---\ntitle: T\n---\n## S\n")
	write(titled, "b.md", "---\ntitle: \"clear\\e[2J\\u202eboth\"\n---\n## S\n")
	for _, args := range [][]string{
		{"list", "walkthroughs", "--no-builtin", "--walkthroughs", named},
		{"check", "--source", filepath.Join(t.TempDir(), "nowhere"), "--no-builtin", "--walkthroughs", named},
		{"list", "walkthroughs", "--no-builtin", "--walkthroughs", titled},
	} {
		_, stdout, stderr := kw(t, append([]string{"--cache-dir", t.TempDir()}, args...)...)
		out := stdout + stderr
		if strings.ContainsAny(out, "\x1b\x07\u202e") {
			t.Errorf("%s: a control character reached the terminal: %q", args[0], out)
		}
		if !strings.Contains(out, `a\x1b]0;PWNED\a.md`) && !strings.Contains(out, `clear\x1b[2J\u202eboth`) {
			t.Errorf("%s: %q, want the name or title spelled out", args[0], out)
		}
	}
	// check's problems at a release, one a line.
	got := diagnostic(pipeline.WalkSet{Name: "docs"}, "v1.99.0", &walkthrough.Error{File: "a\x1b]0;PWNED\x07.md", Line: 1, Col: 1, Msg: "m\rx"})
	if want := `docs/a\x1b]0;PWNED\a.md:1:1: [v1.99.0] m\rx`; got != want {
		t.Errorf("diagnostic = %q, want %q", got, want)
	}
}

// TestEmptyCacheDirIsAUsageError: --cache-dir "" is refused like --tag "";
// it quietly meant the default cache.
func TestEmptyCacheDirIsAUsageError(t *testing.T) {
	for _, v := range []string{"", " "} {
		code, _, stderr := kw(t, "--cache-dir", v, "list", "walkthroughs")
		if code != exitUsage || !strings.Contains(stderr, "empty --cache-dir") {
			t.Errorf("--cache-dir %q: exit %d, stderr %q; want a usage error", v, code, stderr)
		}
	}
}

// TestServeAddress: --addr 0.0.0.0:P listens on IPv4 only and prints the
// loopback address a browser here opens; it printed http://[::]:P/, which
// the server answers with 403, and listened on IPv6 too.
func TestServeAddress(t *testing.T) {
	for _, tt := range []struct {
		host, network string
		addr          net.Addr
		url           string
	}{
		{"0.0.0.0", "tcp4", &net.TCPAddr{IP: net.IPv4zero, Port: 8080}, "http://127.0.0.1:8080/"},
		{"::", "tcp6", &net.TCPAddr{IP: net.IPv6unspecified, Port: 8080}, "http://[::1]:8080/"},
		{"", "tcp", &net.TCPAddr{IP: net.IPv6unspecified, Port: 8080}, "http://127.0.0.1:8080/"},
		{"127.0.0.1", "tcp4", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 9000}, "http://127.0.0.1:9000/"},
		{"::1", "tcp6", &net.TCPAddr{IP: net.IPv6loopback, Port: 9000}, "http://[::1]:9000/"},
		{"localhost", "tcp", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 9000}, "http://127.0.0.1:9000/"},
	} {
		if got := listenNetwork(tt.host); got != tt.network {
			t.Errorf("listenNetwork(%q) = %q, want %q", tt.host, got, tt.network)
		}
		if got := serveURL(tt.network, tt.addr); got != tt.url {
			t.Errorf("serveURL(%s, %s) = %q, want %q", tt.network, tt.addr, got, tt.url)
		}
	}
	// The network listens where it says: 127.0.0.1 on tcp4 is an IPv4
	// socket.
	ln, err := net.Listen(listenNetwork("127.0.0.1"), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if ln.Addr().(*net.TCPAddr).IP.To4() == nil {
		t.Errorf("listening at %s", ln.Addr())
	}
}

// TestControllerInfo: `list controllers -o json` gives each controller's
// watches, and its sync functions with their writes, as its site page
// shows them; it gave the start function and constructors only.
func TestControllerInfo(t *testing.T) {
	deploy := fact.Resource{Group: "apps", Resource: "deployments", Kind: "Deployment"}
	rs := fact.Resource{Group: "apps", Resource: "replicasets", Kind: "ReplicaSet"}
	at := func(line int) fact.Location {
		return fact.Location{Path: "pkg/controller/deployment/d.go", StartLine: line, EndLine: line}
	}
	sync := &trace.Step{Symbol: "k8s.io/kubernetes/pkg/controller/deployment.(*DeploymentController).syncDeployment", Decl: at(10)}
	v := &trace.ControllerView{
		Controller: fact.Controller{Name: "deployment-controller"},
		Watches: []trace.Watch{
			{Registration: fact.HandlerRegistration{Informer: deploy, At: at(1), Add: &fact.Handler{FuncRef: fact.FuncRef{Symbol: "d.addDeployment"}}}, Sync: sync},
			{Registration: fact.HandlerRegistration{Informer: rs, At: at(2), Delete: &fact.Handler{FuncRef: fact.FuncRef{Symbol: "d.deleteReplicaSet"}}}, Sync: sync, Status: "secondary"},
		},
		Syncs: []*trace.Watcher{{
			Sync: sync,
			Writes: []*trace.WriteHop{{Resource: rs, Verb: "Create", APIVerb: "create", More: 2,
				Sites: []trace.WriteSite{{Write: fact.Write{At: at(20)}}, {Write: fact.Write{At: at(30)}}}}},
			Other: []trace.WriteSummary{{Resource: deploy, APIVerb: "update", Subresource: "status", Verbs: []string{"UpdateStatus"}, First: trace.WriteSite{Write: fact.Write{At: at(40)}}, Count: 3}},
		}},
	}
	got := newControllerInfo(v)
	want := controllerInfo{
		Controller: v.Controller,
		Watches: []controllerWatch{
			{Resource: deploy, At: at(1), Add: "d.addDeployment", Sync: sync.Symbol},
			{Resource: rs, At: at(2), Delete: "d.deleteReplicaSet", Sync: sync.Symbol, Secondary: true},
		},
		Syncs: []controllerSync{{Sync: sync.Symbol, Decl: at(10), Writes: []controllerWrite{
			{Verb: "Create", APIVerb: "create", Resource: rs, At: at(20), Count: 4},
			{Verb: "UpdateStatus", APIVerb: "update", Resource: deploy, Subresource: "status", At: at(40), Count: 3},
		}}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// The facts' keys stay at the top level of each controller.
	var b strings.Builder
	if err := emit(&b, "json", []controllerInfo{got}, nil); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"name": "deployment-controller"`, `"watches": [`, `"syncs": [`, `"writes": [`} {
		if !strings.Contains(b.String(), key) {
			t.Errorf("JSON lacks %s:\n%s", key, b.String())
		}
	}
}

// TestRecordChecksScenarioFirst: a --scenario that is not a scenario is a
// usage error before any fetch or build, with --cached too; it was refused
// only after minutes of fetching and building, and with --cached
// ../../../../tmp/x read any JSON file as a recording.
func TestRecordChecksScenarioFirst(t *testing.T) {
	nowhere := filepath.Join(t.TempDir(), "nowhere") // a fetch would fail with exit 1
	cache := t.TempDir()
	for _, args := range [][]string{
		{"--scenario", "nope"},
		{"--scenario", ""},
		{"--cached", "--scenario", "../../../../tmp/x"},
		{"--cached", "--scenario", "nope"},
	} {
		code, stdout, stderr := kw(t, append([]string{"--cache-dir", cache, "record", "--source", nowhere}, args...)...)
		if code != exitUsage || !strings.Contains(stderr, "want one of deployment") || strings.Contains(stderr, "nowhere") {
			t.Errorf("record %s: exit %d, stdout %q, stderr %q; want a usage error before the fetch", strings.Join(args, " "), code, stdout, stderr)
		}
	}
}

// TestBuildSkipsDamagedRecordings: cached recordings that are damaged or
// not their file's (scale.json a copy of deployment.json) cost their own
// pages only: the build succeeds, logs each once naming its file, and
// shows the good one. They failed the whole build with messages naming no
// file.
func TestBuildSkipsDamagedRecordings(t *testing.T) {
	if testing.Short() {
		t.Skip("loads packages")
	}
	const tag = "v1.99.0"
	repo, wdir := gitFixture(t, tag, fixtureWalkthrough)
	cache := t.TempDir()
	good, err := (&record.Recording{Format: record.Format, Tag: tag, Scenario: "deployment"}).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(cache, "record", "recordings", tag)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{
		"deployment.json": good,
		"scale.json":      good,               // another scenario's recording
		"rollout.json":    good[:len(good)/2], // truncated
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(t.TempDir(), "site")
	code, _, stderr := kw(t, "--cache-dir", cache, "build", "--tag", tag, "--source", "git", "--repo", repo,
		"--no-builtin", "--walkthroughs", wdir, "--lang", "en", "--out", out)
	if code != exitOK {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	for _, bad := range []string{"scale.json", "rollout.json"} {
		if n := strings.Count(stderr, filepath.Join(dir, bad)); n != 1 {
			t.Errorf("%s named %d times, want once:\n%s", bad, n, stderr)
		}
	}
	if strings.Contains(stderr, filepath.Join(dir, "deployment.json")) {
		t.Errorf("the good recording was reported:\n%s", stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "recorded.html")); err != nil {
		t.Errorf("the good recording's page: %v", err)
	}
	for _, page := range []string{"recorded-scale.html", "recorded-rollout.html"} {
		if _, err := os.Stat(filepath.Join(out, page)); err == nil {
			t.Errorf("%s written from a recording that is not its scenario's", page)
		}
	}
}

// TestDamagedFactsCacheWarnsOnce: a facts cache file that is damaged is a
// miss said once at the default verbosity, naming the file, and the
// command goes on; the next run reads the file written in its place. The
// miss was said only under -v, as "analysing (no cached facts)".
func TestDamagedFactsCacheWarnsOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("loads packages")
	}
	const tag = "v1.99.0"
	repo, wdir := gitFixture(t, tag, fixtureWalkthrough)
	cache := t.TempDir()
	args := []string{"--cache-dir", cache, "list", "handlers", "--tag", tag, "--source", "git", "--repo", repo, "--no-builtin", "--walkthroughs", wdir}
	if code, _, stderr := kw(t, args...); code != exitOK {
		t.Fatalf("list: exit %d: %s", code, stderr)
	}
	files, err := filepath.Glob(filepath.Join(cache, "facts", "analyzer-*.bin"))
	if err != nil || len(files) != 1 {
		t.Fatalf("facts files %v, %v; want one", files, err)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(files[0], data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := kw(t, args...)
	if code != exitOK || strings.Count(stderr, "analysed again") != 1 || strings.Count(stderr, files[0]) != 1 {
		t.Errorf("list over a damaged facts file: exit %d, stderr:\n%s\nwant one warning naming %s", code, stderr, files[0])
	}
	if code, _, stderr := kw(t, args...); code != exitOK || !strings.Contains(stderr, "facts from cache") || strings.Contains(stderr, "not used") {
		t.Errorf("the next list: exit %d, stderr:\n%s\nwant the facts from the cache", code, stderr)
	}
}
