package record

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kubewalk/kubewalk/source"
)

// fakeTree lays out the parts of a Kubernetes tree the build reads: the
// workspace beside it, go.mod, go.sum and cmd/kubemark, whose
// hollow_node.go is given.
func fakeTree(t *testing.T, hollowNode string) *source.Tree {
	t.Helper()
	base := t.TempDir()
	dir := filepath.Join(base, "kubernetes")
	files := map[string]string{
		"go.mod":                          "module k8s.io/kubernetes\n\ngo 1.26.0\n\nrequire (\n\tgo.etcd.io/etcd/server/v3 v3.6.8\n\tk8s.io/api v0.0.0\n)\n",
		"go.sum":                          "go.etcd.io/etcd/server/v3 v3.6.8 h1:x=\n",
		"cmd/kubemark/hollow-node.go":     "package main\n\nimport \"k8s.io/kubernetes/cmd/kubemark/app\"\n\nfunc main() { app.NewHollowNodeCommand() }\n",
		"cmd/kubemark/app/hollow_node.go": hollowNode,
		"cmd/kubemark/app/other.go":       "package app\n",
		"cmd/kubemark/app/x_test.go":      "package app\n",
	}
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	work := "go 1.26.0\n\ngodebug default=go1.26\n\nuse (\n\t./kubernetes\n\t./kubernetes/staging/src/k8s.io/api\n)\n\nreplace k8s.io/sample-cli-plugin => ./stubs/k8s.io/sample-cli-plugin\n"
	if err := os.WriteFile(filepath.Join(base, "go.work"), []byte(work), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(base, "go.work.sum"), []byte("sum\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return &source.Tree{Dir: dir, Tag: "v1.36.3", Env: []string{"GOWORK=" + filepath.Join(base, "go.work"), "GOFLAGS=-mod=readonly"}}
}

// hollowNode has the five places kubewalk patches, in the shape of
// v1.36's cmd/kubemark/app/hollow_node.go.
const hollowNode = `package app

func run() {
	if config.Morph == "kubelet" {
		clientConfig.UserAgent = "hollow-kubelet"
		endpoint, err := fakeremote.GenerateEndpoint()
		fakeRemoteRuntime := fakeremote.NewFakeRemoteRuntime()
		var imageService internalapi.ImageManagerService = fakeRemoteRuntime.ImageService
		hollowKubelet := kubemark.NewHollowKubelet(f, c, client)
		hollowKubelet.Run(ctx)
	}
}
`

func TestWriteWorkspace(t *testing.T) {
	tree := fakeTree(t, hollowNode)
	dir := t.TempDir()
	work, err := writeWorkspace(tree, tree, dir)
	if err != nil {
		t.Fatal(err)
	}
	base := filepath.Dir(tree.Dir)
	got, _ := os.ReadFile(work)
	for _, want := range []string{
		"go 1.26.0\n",
		"godebug default=go1.26\n",
		"\t" + filepath.Join(base, "kubernetes") + "\n",
		"\t" + filepath.Join(base, "kubernetes/staging/src/k8s.io/api") + "\n",
		"\t" + filepath.Join(dir, "helper") + "\n",
		"k8s.io/sample-cli-plugin => " + filepath.Join(base, "stubs/k8s.io/sample-cli-plugin") + "\n",
	} {
		if !strings.Contains(string(got), want) {
			t.Errorf("go.work lacks %q:\n%s", want, got)
		}
	}
	if sum, err := os.ReadFile(work + ".sum"); err != nil || string(sum) != "sum\n" {
		t.Errorf("go.work.sum not copied: %q, %v", sum, err)
	}
	gomod, _ := os.ReadFile(filepath.Join(dir, "helper", "go.mod"))
	for _, want := range []string{"module " + helperModule, "go 1.26.0", "\tgo.etcd.io/etcd/server/v3 v3.6.8\n"} {
		if !strings.Contains(string(gomod), want) {
			t.Errorf("helper go.mod lacks %q:\n%s", want, gomod)
		}
	}
	app := filepath.Join(dir, "helper", "kubelet", "app")
	hn, _ := os.ReadFile(filepath.Join(app, "hollow_node.go"))
	for _, want := range []string{"clientConfig.UserAgent = kubewalkUserAgent()", "kubewalkEndpoint()", "kubewalkFix(hollowKubelet, client)\n\t\thollowKubelet.Run(ctx)", "\t\tkubewalkRuntime(fakeRemoteRuntime.RuntimeService)\n", "= kubewalkImages(fakeRemoteRuntime.ImageService)"} {
		if !strings.Contains(string(hn), want) {
			t.Errorf("patched hollow_node.go lacks %q:\n%s", want, hn)
		}
	}
	for _, name := range []string{"kubewalk.go", "other.go"} {
		if _, err := os.Stat(filepath.Join(app, name)); err != nil {
			t.Errorf("app/%s: %v", name, err)
		}
	}
	if _, err := os.Stat(filepath.Join(app, "x_test.go")); err == nil {
		t.Error("tests of kubemark were copied")
	}
	main, _ := os.ReadFile(filepath.Join(dir, "helper", "kubelet", "main.go"))
	if !strings.Contains(string(main), `"`+helperModule+`/kubelet/app"`) {
		t.Errorf("main.go does not import the patched app:\n%s", main)
	}
	for _, p := range []string{"etcd/main.go", "etcd/keys.go"} {
		if _, err := os.Stat(filepath.Join(dir, "helper", p)); err != nil {
			t.Error(err)
		}
	}
}

// A release without cmd/kubemark (v1.38 and later) gets its hollow node
// from another release's tree: that tree's cmd/kubemark, patched, and the
// kubemark packages it imports, copied beside it and imported from there
// (by kubewalk's own addition too); the release's own go.mod still
// decides the build list. Without such a tree, Build's error says what is
// missing.
func TestWriteWorkspaceKubemarkOfAnotherRelease(t *testing.T) {
	tree := fakeTree(t, hollowNode)
	if err := os.RemoveAll(filepath.Join(tree.Dir, "cmd", "kubemark")); err != nil {
		t.Fatal(err)
	}
	tree.Tag = "v1.38.0"
	if HasKubemark(tree) {
		t.Fatal("HasKubemark of a tree without cmd/kubemark")
	}
	if _, err := kubemarkOf(tree, nil); !errors.Is(err, ErrBuild) || !strings.Contains(err.Error(), LastKubemark) {
		t.Errorf("kubemarkOf without another release = %v, want ErrBuild naming %s", err, LastKubemark)
	}
	km := fakeTree(t, strings.Replace(hollowNode, "package app\n", "package app\n\nimport (\n\t\"k8s.io/kubernetes/pkg/kubemark\"\n\tproxy \"k8s.io/kubernetes/pkg/proxy/kubemark\"\n)\n", 1))
	km.Tag = "v1.37.2"
	for name, data := range map[string]string{
		"pkg/kubemark/hollow_kubelet.go":      "package kubemark\n\nimport _ \"k8s.io/kubernetes/pkg/kubelet\"\n",
		"pkg/kubemark/hollow_kubelet_test.go": "package kubemark\n",
		"pkg/proxy/kubemark/hollow_proxy.go":  "package kubemark\n",
	} {
		p := filepath.Join(km.Dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := kubemarkOf(tree, km)
	if err != nil || got != km {
		t.Fatalf("kubemarkOf = %v, %v; want the other release's tree", got, err)
	}
	dir := t.TempDir()
	if _, err := writeWorkspace(tree, km, dir); err != nil {
		t.Fatal(err)
	}
	kubelet := filepath.Join(dir, "helper", "kubelet")
	read := func(rel string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(kubelet, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if hn := read("app/hollow_node.go"); !strings.Contains(hn, "kubewalkFix(hollowKubelet, client)") || strings.Contains(hn, `"k8s.io/kubernetes/pkg/kubemark"`) || !strings.Contains(hn, `"`+helperModule+`/kubelet/kubemark"`) || !strings.Contains(hn, `"`+helperModule+`/kubelet/proxykubemark"`) {
		t.Errorf("hollow_node.go is not patched to import the copied kubemark packages:\n%s", hn)
	}
	if hk := read("kubemark/hollow_kubelet.go"); !strings.Contains(hk, `"k8s.io/kubernetes/pkg/kubelet"`) {
		t.Errorf("the copied kubemark package does not import the release's kubelet:\n%s", hk)
	}
	read("proxykubemark/hollow_proxy.go")
	if _, err := os.Stat(filepath.Join(kubelet, "kubemark", "hollow_kubelet_test.go")); err == nil {
		t.Error("tests of pkg/kubemark were copied")
	}
	if kw := read("app/kubewalk.go"); strings.Contains(kw, `"k8s.io/kubernetes/pkg/kubemark"`) || !strings.Contains(kw, `"`+helperModule+`/kubelet/kubemark"`) {
		t.Errorf("kubewalk's addition still imports the tree's kubemark package")
	}
	if mod := read("../go.mod"); !strings.Contains(mod, "go.etcd.io/etcd/server/v3 v3.6.8") {
		t.Errorf("the helper module does not require what the release requires:\n%s", mod)
	}
}

// A release whose kubemark changed shape is refused, naming the file and
// what was looked for, rather than built into something else.
func TestWriteWorkspaceUnknownKubemark(t *testing.T) {
	tree := fakeTree(t, strings.Replace(hollowNode, "hollowKubelet.Run(ctx)", "hollowKubelet.Start(ctx)", 1))
	_, err := writeWorkspace(tree, tree, t.TempDir())
	if !errors.Is(err, ErrBuild) || !strings.Contains(err.Error(), "cmd/kubemark/app/hollow_node.go") || !strings.Contains(err.Error(), "hollowKubelet.Run(") {
		t.Fatalf("err = %v, want ErrBuild naming the file and the pattern", err)
	}
}

func TestVersionLDFlags(t *testing.T) {
	tree := &source.Tree{Tag: "v1.31.0", Commit: "9897eb1"}
	got, err := versionLDFlags(tree)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"-X 'k8s.io/component-base/version.gitVersion=v1.31.0'",
		"-X 'k8s.io/client-go/pkg/version.gitVersion=v1.31.0'",
		"-X 'k8s.io/component-base/version.gitMajor=1'",
		"-X 'k8s.io/component-base/version.gitMinor=31'",
		"-X 'k8s.io/component-base/version.gitCommit=9897eb1'",
		"-X 'k8s.io/component-base/version.gitTreeState=clean'",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("ldflags lack %q: %s", want, got)
		}
	}
	tree.Commit = ""
	got, _ = versionLDFlags(tree)
	if !strings.Contains(got, "gitCommit=unknown") {
		t.Errorf("without a commit: %s", got)
	}
	if _, err := versionLDFlags(&source.Tree{Tag: "master"}); err == nil {
		t.Error("a tag that is no release was accepted")
	}
}

// fakeBins writes shell scripts standing in for the programs.
func fakeBins(t *testing.T, scripts map[string]string) *Binaries {
	t.Helper()
	dir := t.TempDir()
	for _, p := range Programs {
		body, ok := scripts[p]
		if !ok {
			body = "exit 3"
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return &Binaries{Dir: dir, Tag: "v1.36.3", GoVersion: "go1.26.8"}
}

// isolatedTemp points os.TempDir at a directory of the test's, so that
// what a run leaves there can be seen.
func isolatedTemp(t *testing.T) string {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	return dir
}

func leftovers(t *testing.T, tmp string) []string {
	t.Helper()
	ents, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

// alive reports whether a process with the pid written in file still runs
// (a zombie, killed and not yet reaped by init, does not).
func alive(t *testing.T, file string) bool {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("pid file: %v", err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	// The state follows the parenthesised command name.
	s := string(stat)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] != 'Z' && s[i+2] != 'X'
	}
	return true
}

// A component that fails to start is an error that names it and shows the
// end of its log; nothing is left running or on disk.
func TestRunComponentFailsToStart(t *testing.T) {
	tmp := isolatedTemp(t)
	bins := fakeBins(t, map[string]string{
		"etcd": "echo starting etcd\necho 'listen tcp 127.0.0.1:2379: bind: address already in use' >&2\nexit 1",
	})
	_, err := Run(context.Background(), bins, RunOptions{})
	if !errors.Is(err, ErrComponent) {
		t.Fatalf("err = %v, want ErrComponent", err)
	}
	for _, want := range []string{"etcd exited before", "address already in use", "starting etcd"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if l := leftovers(t, tmp); len(l) > 0 {
		t.Errorf("left behind in TMPDIR: %v", l)
	}
}

// Cancelling (Ctrl-C) while a component starts ends the run at once: its
// whole process group is stopped, the grandchild included, even one that
// ignores SIGTERM, and the run directory is removed.
func TestRunCancelled(t *testing.T) {
	tmp := isolatedTemp(t)
	pids := t.TempDir()
	bins := fakeBins(t, map[string]string{
		// etcd never becomes healthy; its child ignores SIGTERM.
		"etcd": "trap '' TERM\n(trap '' TERM; sleep 300) &\necho $! > " + pids + "/child\necho $$ > " + pids + "/etcd\nwhile :; do sleep 1; done",
	})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for range 100 {
			if _, err := os.Stat(filepath.Join(pids, "etcd")); err == nil {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		cancel()
	}()
	start := time.Now()
	_, err := Run(ctx, bins, RunOptions{grace: 200 * time.Millisecond})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Run took %s to return after cancel", d)
	}
	for _, f := range []string{"etcd", "child"} {
		if alive(t, filepath.Join(pids, f)) {
			t.Errorf("%s still runs after Run returned", f)
		}
	}
	if l := leftovers(t, tmp); len(l) > 0 {
		t.Errorf("left behind in TMPDIR: %v", l)
	}
}

// The run directory of a kubewalk that was killed is removed by the next
// run; one whose kubewalk lives is not.
func TestSweepRuns(t *testing.T) {
	tmp := isolatedTemp(t)
	dead := filepath.Join(tmp, runDirPrefix+"dead")
	live := filepath.Join(tmp, runDirPrefix+"live")
	other := filepath.Join(tmp, "unrelated")
	for _, d := range []string{dead, live, other} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A pid that is not running: a child that has exited.
	p, err := os.StartProcess("/bin/true", []string{"true"}, &os.ProcAttr{})
	if err != nil {
		t.Fatal(err)
	}
	p.Wait()
	os.WriteFile(filepath.Join(dead, "pid"), []byte(strconv.Itoa(p.Pid)), 0o644)
	os.WriteFile(filepath.Join(live, "pid"), []byte(strconv.Itoa(os.Getppid())), 0o644)
	sweepRuns()
	if diff := cmp.Diff([]string{runDirPrefix + "live", "unrelated"}, leftovers(t, tmp)); diff != "" {
		t.Errorf("after the sweep (-want +got):\n%s", diff)
	}
}

func TestRecordingRoundTrip(t *testing.T) {
	rec := &Recording{Format: Format, Tag: "v1.36.3", Scenario: "deployment", Events: []Event{{Reason: "Started", At: 5}}}
	data, err := rec.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"audit": []`) || !strings.Contains(string(data), `"keys": []`) {
		t.Errorf("empty lists are not []:\n%s", data)
	}
	back, err := Parse("r.json", data)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(rec.Events, back.Events); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	old := strings.Replace(string(data), fmt.Sprintf(`"format": %d`, Format), `"format": 1`, 1)
	if _, err := Parse("r.json", []byte(old)); err == nil || !strings.Contains(err.Error(), "record it again") {
		t.Errorf("another format: err = %v", err)
	}
	if _, err := Parse("r.json", []byte("{")); err == nil || !strings.Contains(err.Error(), "r.json") {
		t.Errorf("junk: err = %v", err)
	}
}

func TestSaveCached(t *testing.T) {
	cache := t.TempDir()
	if rec, err := Cached(cache, "v1.36.3", "deployment"); rec != nil || err != nil {
		t.Fatalf("empty cache: %v, %v", rec, err)
	}
	rec := &Recording{Format: Format, Tag: "v1.36.3", Scenario: "deployment"}
	name, err := Save(cache, rec)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Cached(cache, "v1.36.3", "deployment")
	if err != nil || got == nil || got.Tag != "v1.36.3" {
		t.Fatalf("Cached = %v, %v", got, err)
	}
	if ents, _ := os.ReadDir(filepath.Dir(name)); len(ents) != 1 {
		t.Errorf("beside the recording: %v", ents)
	}
}

// The audit log gives the run its origin (the first write by kubectl), the
// writes once complete, the watches once started, the name of a created
// object from its body, and each event the API it was written through.
func TestCollectAudit(t *testing.T) {
	dir := t.TempDir()
	log := strings.Join([]string{
		`{"stage":"ResponseComplete","verb":"create","requestURI":"/api/v1/namespaces/kube-system/serviceaccounts","user":{"username":"system:apiserver"},"userAgent":"kube-apiserver/v1.36.3","objectRef":{"resource":"serviceaccounts","namespace":"kube-system","apiVersion":"v1"},"responseStatus":{"code":201},"responseObject":{"metadata":{"name":"default"}},"requestReceivedTimestamp":"2026-11-24T08:00:09.000000Z"}`,
		`{"stage":"ResponseStarted","verb":"watch","requestURI":"/apis/apps/v1/deployments?watch=true","user":{"username":"system:kube-controller-manager"},"userAgent":"kube-controller-manager/v1.36.3","objectRef":{"resource":"deployments","apiGroup":"apps","apiVersion":"v1"},"responseStatus":{"code":200},"requestReceivedTimestamp":"2026-11-24T08:00:09.500000Z"}`,
		`{"stage":"ResponseComplete","verb":"get","requestURI":"/api/v1/nodes/node1","user":{"username":"system:node:node1"},"objectRef":{"resource":"nodes","name":"node1","apiVersion":"v1"},"requestReceivedTimestamp":"2026-11-24T08:00:09.600000Z"}`,
		`{"stage":"ResponseComplete","verb":"create","requestURI":"/apis/apps/v1/namespaces/default/deployments?fieldManager=kubectl-client-side-apply\u0026fieldValidation=Strict","user":{"username":"kubernetes-admin"},"userAgent":"kubectl/v1.36.3 (linux/amd64) kubernetes/unknown","objectRef":{"resource":"deployments","namespace":"default","apiGroup":"apps","apiVersion":"v1"},"responseStatus":{"code":201},"requestObject":{"kind":"Deployment","metadata":{"name":"nginx-deployment"}},"requestReceivedTimestamp":"2026-11-24T08:00:10.000000Z"}`,
		`{"stage":"ResponseComplete","verb":"create","requestURI":"/apis/events.k8s.io/v1/namespaces/default/events","user":{"username":"system:kube-scheduler"},"userAgent":"kube-scheduler/v1.36.3","objectRef":{"resource":"events","namespace":"default","apiGroup":"events.k8s.io","apiVersion":"v1"},"responseStatus":{"code":201},"responseObject":{"metadata":{"name":"p.1"}},"requestReceivedTimestamp":"2026-11-24T08:00:10.271000Z"}`,
	}, "\n") + "\n"
	r := &run{auditLog: filepath.Join(dir, "audit.log")}
	if err := os.WriteFile(r.auditLog, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 11, 24, 8, 0, 10, 0, time.UTC).UnixMilli()
	rec := &Recording{Events: []Event{{Name: "p.1", Namespace: "default", Reason: "Scheduled", At: t0 + 0, Last: t0 + 0}}}
	if err := r.collectAudit(rec); err != nil {
		t.Fatal(err)
	}
	rec.attachEventAPIs()
	type row struct {
		At               int64
		Verb, Stage, Res string
		Name             string
	}
	var got []row
	for _, a := range rec.Audit {
		got = append(got, row{a.At, a.Verb, a.Stage, a.Resource, a.Name})
	}
	want := []row{
		{-1000, "create", "ResponseComplete", "serviceaccounts", "default"},
		{-500, "watch", "ResponseStarted", "deployments", ""},
		{0, "create", "ResponseComplete", "deployments", "nginx-deployment"},
		{271, "create", "ResponseComplete", "events", "p.1"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("audit (-want +got):\n%s", diff)
	}
	if rec.Audit[2].ObjectKind != "Deployment" || rec.Audit[2].User != "kubernetes-admin" {
		t.Errorf("the apply: %+v", rec.Audit[2])
	}
	if e := rec.Events[0]; e.API != "events.k8s.io/v1" || e.At != 271 {
		t.Errorf("event: API %q at %d, want events.k8s.io/v1 at 271", e.API, e.At)
	}
	// Without a write by kubectl there is no origin: an error, not a
	// recording with times of another run.
	os.WriteFile(r.auditLog, []byte(strings.SplitN(log, "\n", 2)[0]+"\n"), 0o644)
	if err := r.collectAudit(&Recording{}); err == nil || !strings.Contains(err.Error(), "no write by kubectl") {
		t.Errorf("err = %v", err)
	}
}

// A build that fails (here: the tree has none of the programs' packages)
// is ErrBuild with the go command's own words, and leaves nothing in the
// cache that a second Build could take for built programs.
func TestBuildFails(t *testing.T) {
	tree := fakeTree(t, hollowNode)
	cache := t.TempDir()
	t.Setenv("GOFLAGS", "")
	t.Setenv("GOPROXY", "off")
	_, err := Build(context.Background(), tree, BuildOptions{CacheDir: cache, Logf: t.Logf})
	if !errors.Is(err, ErrBuild) || !strings.Contains(err.Error(), "v1.36.3") {
		t.Fatalf("err = %v, want ErrBuild naming the release", err)
	}
	t.Logf("the error: %v", err)
	var left []string
	filepath.WalkDir(filepath.Join(cache, "record", "bin"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasSuffix(p, ".lock") {
			left = append(left, p)
		}
		return nil
	})
	if len(left) > 0 {
		t.Errorf("a failed build left files in the cache: %v", left)
	}
}

func TestUnservedIn(t *testing.T) {
	for line, want := range map[string]string{
		"../kubernetes/staging/src/k8s.io/apimachinery/pkg/runtime/converter.go:32:2: sigs.k8s.io/structured-merge-diff/v7@v7.0.1: reading https://proxy.golang.org/sigs.k8s.io/structured-merge-diff/v7/@v/v7.0.1.zip: 403 Forbidden": "sigs.k8s.io/structured-merge-diff/v7@v7.0.1",
		"../kubernetes/cmd/kube-apiserver/app/server.go:30:2: cannot find module providing package k8s.io/apiextensions-api/pkg/apis/apiextensions/v1: import lookup disabled by -mod=readonly":                                        "k8s.io/apiextensions-api/pkg/apis/apiextensions/v1",
		"\tserver response: This module version is not available.": "",
		"pkg/kubelet/kubelet.go:12:2: undefined: foo":              "",
	} {
		if got := unservedIn(line); got != want {
			t.Errorf("unservedIn(%q) = %q, want %q", line, got, want)
		}
	}
}
