//go:build e2e

package e2e

// Accuracy of the analyzer's discovery passes on real Kubernetes
// releases, read from the facts.json.zst of the site kubewalk builds (it
// holds every fact: handlers, wirings, writes, events, list-watches,
// calls), against the tree kubewalk fetch puts on disk.

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/analyzer/fact/factsfile"
	"github.com/kubewalk/kubewalk/source"
)

// passTags are the releases the passes are checked at: the default and an
// older one.
var passTags = []string{source.DefaultTag, "v1.31.0"}

// analysed is a release as the passes found it.
type analysed struct {
	Tag   string
	Facts *fact.Facts
	Dir   string // the tree
}

var analyses struct {
	sync.Mutex
	m map[string]*analysed
}

// analysedReleases builds the site of each of passTags (once per test
// binary) and returns its facts and tree.
func analysedReleases(t *testing.T) []*analysed {
	t.Helper()
	analyses.Lock()
	defer analyses.Unlock()
	if analyses.m == nil {
		analyses.m = map[string]*analysed{}
	}
	var out []*analysed
	for _, tag := range passTags {
		a := analyses.m[tag]
		if a == nil {
			a = analyse(t, tag)
			analyses.m[tag] = a
		}
		out = append(out, a)
	}
	return out
}

func analyse(t *testing.T, tag string) *analysed {
	t.Helper()
	dir, _ := kubewalk(t, "fetch", "--source", "goproxy", "--tag", tag, "-o", "dir")
	tmp, err := os.MkdirTemp("", "kubewalk-e2e-site-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp) // the facts are read before: the pages are not needed
	out := filepath.Join(tmp, "public")
	kubewalk(t, "build", "--source", "goproxy", "--tag", tag, "--out", out, "--quiet")
	f, err := os.Open(filepath.Join(out, "facts.json.zst"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	facts, err := factsfile.Read(f)
	if err != nil {
		t.Fatalf("%s facts.json.zst: %v", tag, err)
	}
	return &analysed{Tag: tag, Facts: facts, Dir: strings.TrimSpace(dir)}
}

// registrationLine matches a line that calls or declares a handler
// registration method, as a plain `grep -rn` would.
var registrationLine = regexp.MustCompile(`AddEventHandler(WithResyncPeriod|WithOptions)?\(`)

// declarationLine matches the lines grep finds that are not calls: method
// declarations and interface method specs.
var declarationLine = regexp.MustCompile(`^\s*(func |AddEventHandler\w*\(handler )`)

// TestE2EHandlersMatchGrep: every non-test call site grep finds in
// pkg/controller and pkg/scheduler is a registration, and every
// registration there is one of grep's lines.
func TestE2EHandlersMatchGrep(t *testing.T) {
	for _, rel := range analysedReleases(t) {
		t.Run(rel.Tag, func(t *testing.T) {
			facts := rel.Facts
			type line struct {
				path string
				n    int
			}
			grep := map[line]string{}
			for _, dir := range []string{"pkg/controller", "pkg/scheduler"} {
				err := filepath.WalkDir(filepath.Join(rel.Dir, dir), func(p string, d fs.DirEntry, err error) error {
					if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
						return err
					}
					f, err := os.Open(p)
					if err != nil {
						return err
					}
					defer f.Close()
					r, _ := filepath.Rel(rel.Dir, p)
					sc := bufio.NewScanner(f)
					sc.Buffer(nil, 1<<20)
					for n := 1; sc.Scan(); n++ {
						txt := sc.Text()
						if registrationLine.MatchString(txt) && !declarationLine.MatchString(txt) && !strings.HasPrefix(strings.TrimSpace(txt), "//") {
							grep[line{filepath.ToSlash(r), n}] = strings.TrimSpace(txt)
						}
					}
					return sc.Err()
				})
				if err != nil {
					t.Fatal(err)
				}
			}
			covered := map[line]bool{}
			found := 0
			for _, h := range facts.Handlers {
				if !strings.HasPrefix(h.At.Path, "pkg/controller/") && !strings.HasPrefix(h.At.Path, "pkg/scheduler/") {
					continue
				}
				found++
				ok := false
				for n := h.At.StartLine; n <= h.At.EndLine && !ok; n++ {
					if _, in := grep[line{h.At.Path, n}]; in {
						covered[line{h.At.Path, n}], ok = true, true
					}
				}
				if !ok {
					t.Errorf("%s:%d: registration %s found, but grep has no line for it", h.At.Path, h.At.StartLine, h.Method)
				}
			}
			for l, txt := range grep {
				if !covered[l] {
					t.Errorf("%s:%d: grep finds %q, the handlers pass does not", l.path, l.n, txt)
				}
			}
			t.Logf("%s: %d registrations in pkg/controller and pkg/scheduler, %d call lines by grep", rel.Tag, found, len(grep))
		})
	}
}

// TestE2EHappyPathEvents: the events of a new Deployment's happy path, at
// the lines that emit them.
func TestE2EHappyPathEvents(t *testing.T) {
	want := []struct{ reason, path, caller string }{
		{"ScalingReplicaSet", "pkg/controller/deployment/sync.go", "deployment.DeploymentController.getNewReplicaSet"},
		{"SuccessfulCreate", "pkg/controller/controller_utils.go", "controller.RealPodControl."},
		{"Scheduled", "pkg/scheduler/schedule_one.go", "scheduler.Scheduler."},
		{"Pulling", "pkg/kubelet/images/image_manager.go", "images.imageManager."},
		{"Pulled", "pkg/kubelet/images/image_manager.go", "images.imageManager."},
		{"Created", "pkg/kubelet/kuberuntime/kuberuntime_container.go", "kuberuntime.kubeGenericRuntimeManager.startContainer"},
		{"Started", "pkg/kubelet/kuberuntime/kuberuntime_container.go", "kuberuntime.kubeGenericRuntimeManager.startContainer"},
	}
	for _, rel := range analysedReleases(t) {
		t.Run(rel.Tag, func(t *testing.T) {
			facts := rel.Facts
			for _, w := range want {
				var hit *fact.Event
				for i, e := range facts.Events {
					if e.Reason == w.reason && e.At.Path == w.path && strings.Contains(e.Caller.Symbol, w.caller) {
						hit = &facts.Events[i]
						break
					}
				}
				if hit == nil {
					t.Errorf("no %s event in %s called from %s", w.reason, w.path, w.caller)
					continue
				}
				// The reason expression is written on the reported lines.
				text := linesOf(t, filepath.Join(rel.Dir, hit.At.Path), hit.At.StartLine, hit.At.EndLine)
				if !strings.Contains(text, hit.ReasonExpr) {
					t.Errorf("%s:%d: event %s: reason expression %q not on lines %d-%d:\n%s", hit.At.Path, hit.At.StartLine, w.reason, hit.ReasonExpr, hit.At.StartLine, hit.At.EndLine, text)
				}
				t.Logf("%s %s:%d %s via=%s", w.reason, hit.At.Path, hit.At.StartLine, hit.Caller.Symbol, hit.Via)
			}
		})
	}
}

func linesOf(t *testing.T, file string, from, to int) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	ls := strings.Split(string(b), "\n")
	if from < 1 || to > len(ls) || from > to {
		t.Fatalf("%s: lines %d-%d out of range", file, from, to)
	}
	return strings.Join(ls[from-1:to], "\n")
}

// TestE2EWrites: the writes on a Deployment's path.
func TestE2EWrites(t *testing.T) {
	want := []struct {
		callers                      []string // symbol suffixes, one of which makes the write
		resource, sub, verb, apiVerb string
		group                        string
	}{
		{[]string{"deployment.DeploymentController.getNewReplicaSet"}, "replicasets", "", "create", "create", "apps"},
		// v1.37 moved the POST into util.BindPod, which retries it.
		{[]string{"defaultbinder.DefaultBinder.Bind", "scheduler/util.BindPod$1"}, "pods", "binding", "bind", "create", ""},
		{[]string{"controller.RealPodControl.createPods"}, "pods", "", "create", "create", ""},
	}
	for _, rel := range analysedReleases(t) {
		t.Run(rel.Tag, func(t *testing.T) {
			for _, w := range want {
				found := false
				for _, got := range rel.Facts.Writes {
					byCaller := slices.ContainsFunc(w.callers, func(c string) bool { return strings.HasSuffix(got.Caller.Symbol, c) })
					if byCaller && got.Resource.Resource == w.resource &&
						got.Subresource == w.sub && got.Verb == w.verb && got.APIVerb == w.apiVerb &&
						got.Resource.Group == w.group && got.Resource.Version == "v1" {
						found = true
						t.Logf("%s:%d %s/%s %s via %s", got.At.Path, got.At.StartLine, got.Resource.Resource, got.Subresource, got.Verb, got.Via)
					}
				}
				if !found {
					t.Errorf("no write %s/%s %s in %s", w.resource, w.sub, w.verb, strings.Join(w.callers, " or "))
				}
			}
		})
	}
}

// TestE2EDeploymentController: the deployment controller's three
// registrations with their handler methods, its sync wiring, and the
// replicaset controller's interface call into RealPodControl, one check
// after another of the facts of one release, so it reads as the
// walkthrough it protects.
func TestE2EDeploymentController(t *testing.T) {
	for _, rel := range analysedReleases(t) {
		t.Run(rel.Tag, func(t *testing.T) {
			checkDeploymentRegistrations(t, rel.Facts)
			checkDeploymentWiring(t, rel.Facts)
		})
	}
}

// deploymentPkg is the deployment controller's package, as symbols start.
const deploymentPkg = "k8s.io/kubernetes/pkg/controller/deployment."

// checkDeploymentRegistrations: NewDeploymentController registers a
// Deployment, a ReplicaSet and a Pod informer, each with its methods.
func checkDeploymentRegistrations(t *testing.T, facts *fact.Facts) {
	t.Helper()
	const pkg = deploymentPkg
	want := map[string][3]string{ // informer kind → add, update, delete methods ("" = none)
		"Deployment": {"addDeployment", "updateDeployment", "deleteDeployment"},
		"ReplicaSet": {"addReplicaSet", "updateReplicaSet", "deleteReplicaSet"},
		"Pod":        {"", "", "deletePod"},
	}
	seen := map[string]bool{}
	for _, h := range facts.Handlers {
		if h.Caller.Symbol != pkg+"NewDeploymentController" {
			continue
		}
		w, ok := want[h.Informer.Kind]
		if !ok {
			t.Errorf("%s:%d: unexpected informer %+v", h.At.Path, h.At.StartLine, h.Informer)
			continue
		}
		seen[h.Informer.Kind] = true
		for i, got := range []*fact.Handler{h.Add, h.Update, h.Delete} {
			if w[i] == "" {
				if got != nil {
					t.Errorf("%s:%d: %s informer: unexpected handler %+v", h.At.Path, h.At.StartLine, h.Informer.Kind, got)
				}
				continue
			}
			method := pkg + "DeploymentController." + w[i]
			if got == nil || (got.Symbol != method && !slices.Contains(got.Calls, method)) {
				t.Errorf("%s:%d: %s informer: handler %d = %+v, want %s (directly or called from a literal)", h.At.Path, h.At.StartLine, h.Informer.Kind, i, got, method)
			}
		}
	}
	for k := range want {
		if !seen[k] {
			t.Errorf("no %s registration in NewDeploymentController", k)
		}
	}
}

// checkDeploymentWiring: the sync handler's wiring and the call edges the
// walkthrough follows, and the kubelet's pod source.
func checkDeploymentWiring(t *testing.T, facts *fact.Facts) {
	t.Helper()
	const pkg = deploymentPkg
	wired := false
	for _, w := range facts.Wirings {
		if w.Type == pkg+"DeploymentController" && w.Field == "syncHandler" {
			wired = true
			if w.Sync.Symbol != pkg+"DeploymentController.syncDeployment" || w.Queue != "queue" ||
				w.Worker == nil || w.Worker.Symbol != pkg+"DeploymentController.processNextWorkItem" || len(w.Enqueuers) == 0 {
				t.Errorf("deployment wiring = %+v", w)
			}
		}
	}
	if !wired {
		t.Error("no DeploymentController.syncHandler wiring")
	}

	edge := false
	for _, c := range facts.Calls {
		if strings.HasPrefix(c.From, "k8s.io/kubernetes/pkg/controller/replicaset.ReplicaSetController.manageReplicas") &&
			c.To == "k8s.io/kubernetes/pkg/controller.RealPodControl.CreatePods" && c.Kind == "interface" {
			edge = true
		}
	}
	if !edge {
		t.Error("no interface call edge manageReplicas → controller.RealPodControl.CreatePods")
	}

	// The sync handler is reached through its func field.
	fieldEdge := false
	for _, c := range facts.Calls {
		if c.From == pkg+"DeploymentController.processNextWorkItem" && c.To == pkg+"DeploymentController.syncDeployment" && c.Kind == "func field" {
			fieldEdge = true
		}
	}
	if !fieldEdge {
		t.Error("no func field call edge processNextWorkItem → syncDeployment (dc.syncHandler)")
	}

	// The kubelet's pod source: a list-watch of pods selected by
	// spec.nodeName, fed to a reflector whose store pushes to the
	// kubelet's channel.
	kubelet := false
	for _, lw := range facts.ListWatches {
		if lw.Caller.Symbol != "k8s.io/kubernetes/pkg/kubelet/config.NewSourceApiserver" {
			continue
		}
		kubelet = true
		if lw.Resource.Resource != "pods" || lw.Resource.Kind != "Pod" || !slices.Contains(lw.Fields, "spec.nodeName") ||
			len(lw.Consumers) != 1 || lw.Consumers[0].Kind != "reflector" || lw.Consumers[0].Push == nil {
			t.Errorf("kubelet list-watch = %+v", lw)
		}
	}
	if !kubelet {
		t.Error("no list-watch in pkg/kubelet/config.NewSourceApiserver")
	}
}
