//go:build e2e

package e2e

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	// The types kubewalk record -o json writes.
	"github.com/kubewalk/kubewalk/internal/derive/explain"
	"github.com/kubewalk/kubewalk/record"
	"github.com/kubewalk/kubewalk/source"
	"github.com/kubewalk/kubewalk/walkthroughs"
)

// recordTags are the releases make e2e records: the default and an older
// one whose staging modules the proxy serves whole (v1.31.14 lacks
// kube-aggregator and kube-scheduler there, which the programs need).
var recordTags = []string{source.DefaultTag, "v1.31.0"}

// recorded is what `kubewalk record -o json` prints.
type recorded struct {
	*record.Recording
	Attribution *explain.Attribution `json:"attribution"`
}

// hop is an audited write as the blog post's audit log shows a hop: who,
// and what they wrote.
type hop struct{ user, verb, resource string }

func auditHops(rec *record.Recording) map[hop]int {
	out := map[hop]int{}
	for _, a := range rec.Audit {
		if !a.IsWrite() || a.At < 0 || a.Namespace != "default" {
			continue
		}
		// An event is written by whoever reports one, about the scenario
		// or not (the node controller's RegisteredNode lands in the
		// default namespace when it comes late): events are compared by
		// their reasons instead.
		if a.Resource == "events" {
			continue
		}
		res := a.Resource
		if a.Subresource != "" {
			res += "/" + a.Subresource
		}
		user := a.User
		if strings.HasPrefix(a.UserAgent, "kubectl/") {
			user = "kubectl"
		}
		out[hop{user, a.Verb, res}]++
	}
	return out
}

func reasons(rec *record.Recording) map[string]int {
	out := map[string]int{}
	for _, e := range rec.Events {
		if scenarioEvent(e) {
			out[e.Reason]++
		}
	}
	return out
}

// TestE2ERecord records the deployment scenario at each of recordTags
// and holds the recording to what the blog posts observed on real
// clusters, and its attribution to the facts of the release.
func TestE2ERecord(t *testing.T) {
	for _, tag := range recordTags {
		t.Run(tag, func(t *testing.T) {
			args := []string{"record", "--source", "goproxy", "--tag", tag, "-o", "json"}
			if tag != source.DefaultTag {
				// The older release is recorded with its plain programs: one
				// build a release keeps make e2e within CI's time from an
				// empty build cache; TestE2ECoverage covers the counters.
				args = append(args, "--coverage=false")
			}
			out, stderr := kubewalk(t, args...)
			t.Logf("record %s:\n%s", tag, stderr)
			var r recorded
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatal(err)
			}
			rec := r.Recording
			if rec.Tag != tag {
				t.Fatalf("recording of %q", rec.Tag)
			}
			for _, c := range rec.Components {
				if c.Name != "etcd" && !strings.Contains(c.Version, tag) {
					t.Errorf("%s says %q, not %s: the binaries are not stamped with the release", c.Name, c.Version, tag)
				}
			}
			// The seven reasons of `kubectl get event --watch` in the blog
			// post, per Pod where the post has them per Pod. Pulling is
			// seen once at least: the fake runtime pulls the image for the
			// first Pod, the others find it present, as a real node does.
			got := reasons(rec)
			for reason, min := range map[string]int{"ScalingReplicaSet": 1, "SuccessfulCreate": 3, "Scheduled": 3, "Pulling": 1, "Pulled": 3, "Created": 3, "Started": 3} {
				if got[reason] < min {
					t.Errorf("%s: %d events %s, want at least %d (all: %v)", tag, got[reason], reason, min, got)
				}
			}
			// The audit log's hops, as the blog post followed them.
			h := auditHops(rec)
			for _, want := range []hop{
				{"kubectl", "create", "deployments"},
				{"system:serviceaccount:kube-system:deployment-controller", "create", "replicasets"},
				{"system:serviceaccount:kube-system:replicaset-controller", "create", "pods"},
				{"system:kube-scheduler", "create", "pods/binding"},
				{"system:node:node1", "patch", "pods/status"},
			} {
				if h[want] == 0 {
					t.Errorf("%s: no audited %s %s by %s", tag, want.verb, want.resource, want.user)
				}
			}
			checkAttribution(t, tag, r)
			if tag == source.DefaultTag {
				compareWithKept(t, rec, "ScalingReplicaSet", "SuccessfulCreate", "Scheduled", "Created", "Started")
			}
		})
	}
}

// checkAttribution fails, listing them, for scenario items left
// unattributed, and for items attributed to a line that does not emit or
// write what was recorded.
func checkAttribution(t *testing.T, tag string, r recorded) {
	t.Helper()
	var events []fact.Event
	var writes []fact.Write
	eo, _ := kubewalk(t, "list", "events", "--source", "goproxy", "--tag", tag, "-o", "json")
	wo, _ := kubewalk(t, "list", "writes", "--source", "goproxy", "--tag", tag, "-o", "json")
	if err := json.Unmarshal([]byte(eo), &events); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(wo), &writes); err != nil {
		t.Fatal(err)
	}
	emits := func(c explain.Code, reason string) bool {
		return slices.ContainsFunc(events, func(e fact.Event) bool {
			return e.At.Path == c.Path && e.At.StartLine == c.Line && e.Reason == reason
		})
	}
	// A write whose resource is known only at run time (a dynamic
	// client's, kubectl's resource.Helper) writes any resource.
	writesIt := func(c explain.Code, a record.AuditEntry) bool {
		return slices.ContainsFunc(writes, func(w fact.Write) bool {
			return w.At.Path == c.Path && w.At.StartLine == c.Line && w.APIVerb == a.Verb && (w.Resource.Resource == a.Resource || w.ResourceDynamic) && w.Subresource == a.Subresource
		})
	}
	var bad []string
	n, ok := 0, 0
	for _, e := range r.Attribution.Events {
		if !e.Scenario {
			continue
		}
		n++
		line := fmt.Sprintf("event %s %s/%s", e.Reason, e.Object.Kind, e.Object.Name)
		codes := e.Explanation.Code
		switch {
		case len(codes) == 0:
			bad = append(bad, line+": not attributed: "+e.Explanation.Note)
			continue
		case !slices.ContainsFunc(codes, func(c explain.Code) bool { return emits(c, e.Reason) }):
			bad = append(bad, fmt.Sprintf("%s: attributed to %v, none of which emits %s", line, codes, e.Reason))
			continue
		}
		ok++
	}
	for _, a := range r.Attribution.Audit {
		if !a.Scenario {
			continue
		}
		n++
		line := fmt.Sprintf("audit %s %s/%s %s by %s", a.Verb, a.Resource, a.Subresource, a.Name, a.User)
		ex := a.Explanation
		switch {
		case strings.HasPrefix(a.UserAgent, "kubectl/"):
			// The user's client: the step that explains the request is its
			// attribution, or the write of the kubectl command that made
			// it (apply, scale and delete are analysed) when no step does.
			if len(ex.Steps) == 0 && !slices.ContainsFunc(ex.Code, func(c explain.Code) bool { return c.Role == "wrote" && writesIt(c, a.AuditEntry) }) {
				bad = append(bad, line+": no step or write explains it")
				continue
			}
		case a.Resource == "events":
			if !slices.ContainsFunc(ex.Code, func(c explain.Code) bool { return c.Role == "emitted" }) {
				bad = append(bad, line+": not attributed to the recorder call: "+ex.Note)
				continue
			}
		case !slices.ContainsFunc(ex.Code, func(c explain.Code) bool { return c.Role == "wrote" }):
			bad = append(bad, line+": not attributed to a write: "+ex.Note)
			continue
		case !slices.ContainsFunc(ex.Code, func(c explain.Code) bool { return c.Role == "wrote" && writesIt(c, a.AuditEntry) }):
			bad = append(bad, fmt.Sprintf("%s: attributed to %v, none of which writes it", line, ex.Code))
			continue
		}
		ok++
	}
	t.Logf("%s %s: %d of %d scenario items attributed (%.1f%%)", tag, r.Scenario, ok, n, 100*float64(ok)/float64(max(n, 1)))
	if art := os.Getenv("KUBEWALK_ARTIFACTS"); art != "" {
		os.WriteFile(filepath.Join(art, "record-"+tag+"-"+r.Scenario+"-attribution.txt"), fmt.Appendf(nil, "%d of %d attributed\n%s\n", ok, n, strings.Join(bad, "\n")), 0o644)
	}
	if len(bad) > 0 {
		t.Errorf("%s: %d scenario items not attributed, or attributed wrongly:\n  %s", tag, len(bad), strings.Join(bad, "\n  "))
	}
}

// compareWithKept compares a fresh recording of the default release with
// the one kept with the walkthroughs, which sites show without recording
// (read with record.Find, as a build finds it: the binary prints only
// recordings it made):
// the same hops and the same reasons, and as many events of each reason
// in counted as the kept one has. Repeats of status writes, image pulls
// and back-offs depend on timing and are compared as present or absent;
// the kubelet's start-up race of a pod's volume (mountRace) is not
// compared. A reason that differs is shown with its events' messages.
func compareWithKept(t *testing.T, rec *record.Recording, counted ...string) {
	t.Helper()
	kept, err := record.Find(t.TempDir(), walkthroughs.Recordings, rec.Tag, rec.Scenario)
	if err != nil || kept == nil {
		t.Fatalf("no recording of %s kept with the walkthroughs: %v", rec.Tag, err)
	}
	keys := func(m map[hop]int) []string {
		var out []string
		for h := range m {
			out = append(out, h.user+" "+h.verb+" "+h.resource)
		}
		slices.Sort(out)
		return out
	}
	if a, b := keys(auditHops(kept)), keys(auditHops(rec)); !slices.Equal(a, b) {
		t.Errorf("the hops differ from the kept recording's:\nkept: %v\nnow:  %v", a, b)
	}
	// The kubelet's start-up race of a pod's volume (mountRace) is not
	// compared, in either recording; it is logged.
	kr, kraced := comparedReasons(kept)
	nr, nraced := comparedReasons(rec)
	for _, r := range []struct {
		name   string
		events []record.Event
	}{{"now", nraced}, {"in the kept recording", kraced}} {
		for _, e := range r.events {
			t.Logf("not compared, the kubelet's start-up race of a volume, %s: %s", r.name, describeEvent(e))
		}
	}
	for _, r := range counted {
		if kr[r] != nr[r] {
			t.Errorf("%d events %s, the kept recording has %d\n%s", nr[r], r, kr[r], reasonEvents(rec, kept, r))
		}
	}
	for _, m := range []map[string]int{nr, kr} {
		for r := range m {
			if (kr[r] == 0) != (nr[r] == 0) {
				t.Errorf("reason %s: %d now, %d in the kept recording\n%s", r, nr[r], kr[r], reasonEvents(rec, kept, r))
			}
		}
	}
}

// leftovers lists what a recorded run could leave behind: processes of
// programs in the binaries cache and run directories.
func leftovers(t *testing.T, cache string) []string {
	t.Helper()
	var out []string
	ps, _ := exec.Command("pgrep", "-af", filepath.Join(cache, "record", "bin")).Output()
	for _, l := range strings.Split(strings.TrimSpace(string(ps)), "\n") {
		if l != "" && !strings.Contains(l, "pgrep") {
			out = append(out, "process: "+l)
		}
	}
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), "kubewalk-record-*"))
	for _, d := range dirs {
		out = append(out, "directory: "+d)
	}
	// kubemark makes the hollow kubelet's root directory in /tmp, not
	// in TMPDIR: one made or changed since these tests began is left.
	dirs, _ = filepath.Glob("/tmp/hollow-kubelet.*")
	for _, d := range dirs {
		if fi, err := os.Stat(d); err == nil && !fi.ModTime().Before(testsBegan) {
			out = append(out, "directory: "+d)
		}
	}
	return out
}

// testsBegan is when this test binary started.
var testsBegan = time.Now().Truncate(time.Second)

// Ctrl-C in the middle of a run: kubewalk exits, and nothing it started
// runs on, nothing it wrote in the temporary directory stays.
func TestE2ERecordInterrupted(t *testing.T) {
	interruptRecord(t, "deployment", "started kubelet", nil)
}

// interruptRecord records scenario, sends Ctrl-C once kubewalk's log
// says started (the programs may have to be built first), after running
// during, and checks that kubewalk exits non-zero within 30 s and leaves
// nothing behind (leftovers).
func interruptRecord(t *testing.T, scenario, started string, during func()) {
	t.Helper()
	kw, cache := bin(t), cacheDir(t)
	cmd := exec.Command(kw, "--cache-dir", cache, "record", "--source", "goproxy", "--scenario", scenario)
	var stderr bytes.Buffer
	pr, pw, _ := os.Pipe()
	cmd.Stderr = pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	seen := make(chan struct{})
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := pr.Read(buf)
			stderr.Write(buf[:n])
			if strings.Contains(stderr.String(), started) {
				select {
				case <-seen:
				default:
					close(seen)
				}
			}
			if err != nil {
				return
			}
		}
	}()
	select {
	case <-seen:
	case <-time.After(20 * time.Minute): // the programs may have to be built first
		cmd.Process.Kill()
		t.Fatalf("kubewalk never logged %q:\n%s", started, stderr.String())
	}
	if during != nil {
		during()
	}
	cmd.Process.Signal(syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err == nil {
			t.Error("an interrupted record exited 0")
		}
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("record did not exit within 30 s of Ctrl-C")
	}
	if l := leftovers(t, cache); len(l) > 0 {
		t.Errorf("left behind after Ctrl-C:\n%s\n%s", strings.Join(l, "\n"), stderr.String())
	}
}

// Two records of one release at once both succeed, each on its own ports
// and directory, and the cache keeps one whole recording.
func TestE2ERecordRacing(t *testing.T) {
	kw, cache := bin(t), cacheDir(t)
	var cmds []*exec.Cmd
	var outs []*bytes.Buffer
	for range 2 {
		c := exec.Command(kw, "--cache-dir", cache, "record", "--source", "goproxy", "-o", "json")
		var b bytes.Buffer
		c.Stdout, c.Stderr = &b, &b
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, outs = append(cmds, c), append(outs, &b)
	}
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Errorf("record %d: %v\n%s", i, err, outs[i])
		}
	}
	out, errs, code := run{cache: cache}.do(t, "record", "--source", "goproxy", "--cached", "-o", "json")
	var r recorded
	if code != 0 || json.Unmarshal([]byte(out), &r) != nil || r.Recording == nil || r.Tag != source.DefaultTag {
		t.Errorf("the cached recording after the race: exit %d\n%s", code, errs)
	}
	if l := leftovers(t, cache); len(l) > 0 {
		t.Errorf("left behind:\n%s", strings.Join(l, "\n"))
	}
}

// The scenarios beyond the first, at the default release: scaling up and
// down (the replicaset controller deleting Pods, the kubelet killing their
// containers), a rolling update (a second ReplicaSet) and deleting the
// Deployment (the garbage collector deleting the ReplicaSet, then its
// Pods), each attributed whole, and each compared hop by hop and reason
// by reason with the recording kept with the walkthroughs.
func TestE2ERecordScenarios(t *testing.T) {
	for _, sc := range []struct {
		name    string
		reasons []string
	}{
		{"scale", []string{"ScalingReplicaSet", "SuccessfulCreate", "SuccessfulDelete", "Killing", "Started"}},
		{"rollout", []string{"ScalingReplicaSet", "SuccessfulCreate", "SuccessfulDelete", "Killing", "Started"}},
		{"delete", []string{"ScalingReplicaSet", "SuccessfulCreate", "Killing", "Started"}},
		{"unschedulable", []string{"FailedScheduling", "ScalingReplicaSet", "SuccessfulCreate", "SuccessfulDelete", "Scheduled", "Started"}},
		{"daemonset", []string{"SuccessfulCreate", "Scheduled", "Started"}},
		{"statefulset", []string{"SuccessfulCreate", "Scheduled", "Started"}},
		{"job", []string{"SuccessfulCreate", "Scheduled", "Started", "Completed"}},
		{"cronjob", []string{"SuccessfulCreate", "Started", "Completed", "SawCompletedJob"}},
		{"crashloop", []string{"ScalingReplicaSet", "Started", "BackOff"}},
		{"imagepull", []string{"Pulling", "Failed", "BackOff", "ScalingReplicaSet", "Started"}},
	} {
		t.Run(sc.name, func(t *testing.T) {
			out, _ := kubewalk(t, "record", "--source", "goproxy", "--scenario", sc.name, "-o", "json")
			var r recorded
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatal(err)
			}
			got := reasons(r.Recording)
			for _, want := range sc.reasons {
				if got[want] == 0 {
					t.Errorf("%s: no %s event (all: %v)", sc.name, want, got)
				}
			}
			rs := map[string]bool{}
			for _, a := range r.Audit {
				if a.Verb == "create" && a.Resource == "replicasets" {
					rs[a.Name] = true
				}
			}
			if want := map[string]int{"scale": 1, "rollout": 2, "delete": 1, "unschedulable": 2, "daemonset": 0, "statefulset": 0, "job": 0, "cronjob": 0, "crashloop": 1, "imagepull": 2}[sc.name]; len(rs) != want {
				t.Errorf("%s: %d ReplicaSets created (%v), want %d", sc.name, len(rs), rs, want)
			}
			switch sc.name {
			case "delete":
				checkCascade(t, r)
			case "unschedulable":
				checkFailedScheduling(t, r)
			case "statefulset":
				checkOrderedStart(t, r)
			case "job":
				checkEventCode(t, r, "Completed", "Job", "k8s.io/kubernetes/pkg/controller/job.")
			case "cronjob":
				checkEventCode(t, r, "SuccessfulCreate", "CronJob", "k8s.io/kubernetes/pkg/controller/cronjob.")
				checkEventCode(t, r, "SawCompletedJob", "CronJob", "k8s.io/kubernetes/pkg/controller/cronjob.")
				checkEventCode(t, r, "Completed", "Job", "k8s.io/kubernetes/pkg/controller/job.")
			case "crashloop":
				checkEventCode(t, r, "BackOff", "Pod", "k8s.io/kubernetes/pkg/kubelet/")
				checkPulledAgain(t, r)
			case "imagepull":
				checkEventCode(t, r, "BackOff", "Pod", "k8s.io/kubernetes/pkg/kubelet/")
				checkEventCode(t, r, "Failed", "Pod", "k8s.io/kubernetes/pkg/kubelet/")
				checkPullErrors(t, r)
				checkSecretRedacted(t, out, r)
			}
			checkAttribution(t, source.DefaultTag, r)
			compareWithKept(t, r.Recording)
		})
	}
}

// checkCascade checks the delete scenario's cascade: kubectl deletes the
// Deployment, whose delete the kubectl delete command's code is among the
// writers of; the garbage collector deletes the ReplicaSet and each Pod
// (its deleteObject), and the Pods are gone.
func checkCascade(t *testing.T, r recorded) {
	t.Helper()
	gc := map[string]int{}
	for i, a := range r.Audit {
		if a.Verb != "delete" || a.At < 0 {
			continue
		}
		var code []string
		if r.Attribution != nil && i < len(r.Attribution.Audit) {
			code = symbols(r.Attribution.Audit[i].Explanation.Code)
		}
		switch {
		case a.Resource == "deployments" && strings.HasPrefix(a.UserAgent, "kubectl/"):
			if !slices.Contains(code, "k8s.io/kubectl/pkg/cmd/delete.DeleteOptions.deleteResource") {
				t.Errorf("kubectl's delete of the Deployment is attributed to %v, which lacks the delete command's", code)
			}
		case a.User == "system:serviceaccount:kube-system:generic-garbage-collector":
			gc[a.Resource]++
			if !slices.Contains(code, "k8s.io/kubernetes/pkg/controller/garbagecollector.GarbageCollector.deleteObject") {
				t.Errorf("the garbage collector's delete of %s %s is attributed to %v", a.Resource, a.Name, code)
			}
		}
	}
	if gc["replicasets"] != 1 || gc["pods"] != 3 {
		t.Errorf("the garbage collector deleted %v, want 1 ReplicaSet and 3 Pods", gc)
	}
}

// symbols are the symbols of an attribution's code.
func symbols(cs []explain.Code) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Symbol)
	}
	return out
}

// checkFailedScheduling checks the unschedulable scenario's failures: each
// FailedScheduling event says the node lacks CPU and is attributed to the
// scheduler's handleSchedulingFailure.
func checkFailedScheduling(t *testing.T, r recorded) {
	t.Helper()
	n := 0
	for i, e := range r.Events {
		if e.Reason != "FailedScheduling" {
			continue
		}
		n++
		if !strings.Contains(e.Message, "Insufficient cpu") {
			t.Errorf("FailedScheduling %q does not say the node lacks CPU", e.Message)
		}
		var code []string
		if r.Attribution != nil && i < len(r.Attribution.Events) {
			code = symbols(r.Attribution.Events[i].Explanation.Code)
		}
		if !slices.Contains(code, "k8s.io/kubernetes/pkg/scheduler.Scheduler.handleSchedulingFailure") {
			t.Errorf("FailedScheduling of %s is attributed to %v", e.Object.Name, code)
		}
	}
	if n == 0 {
		t.Error("no FailedScheduling event")
	}
}

// checkEventCode checks that the scenario has an event of reason on an
// object of kind, and that each such event is attributed to code whose
// symbol begins with prefix (a package of the component that records it).
func checkEventCode(t *testing.T, r recorded, reason, kind, prefix string) {
	t.Helper()
	n := 0
	for i, e := range r.Events {
		if e.Reason != reason || e.Object.Kind != kind || e.At < 0 {
			continue
		}
		n++
		var code []string
		if r.Attribution != nil && i < len(r.Attribution.Events) {
			code = symbols(r.Attribution.Events[i].Explanation.Code)
		}
		if !slices.ContainsFunc(code, func(s string) bool { return strings.HasPrefix(s, prefix) }) {
			t.Errorf("%s of %s %s (%q) is attributed to %v, none in %s", reason, kind, e.Object.Name, e.Message, code, prefix)
		}
	}
	if n == 0 {
		t.Errorf("no %s event of a %s", reason, kind)
	}
}

// checkPulledAgain checks that the crashing container was started again:
// the kubelet found its image already present for the restart.
func checkPulledAgain(t *testing.T, r recorded) {
	t.Helper()
	for _, e := range r.Events {
		if e.Reason == "Pulled" && strings.Contains(e.Message, "already present") {
			return
		}
	}
	t.Error("no Pulled event of a restart (image already present)")
}

// checkPullErrors checks the imagepull scenario's failures: the kubelet's
// Failed events give ErrImagePull and then ImagePullBackOff, and the
// pull's own error.
func checkPullErrors(t *testing.T, r recorded) {
	t.Helper()
	seen := map[string]bool{}
	for _, e := range r.Events {
		if e.Reason != "Failed" {
			continue
		}
		for _, w := range []string{"ErrImagePull", "ImagePullBackOff", `Failed to pull image "nginx:no-such-tag"`} {
			if strings.Contains(e.Message, w) {
				seen[w] = true
			}
		}
	}
	for _, w := range []string{"ErrImagePull", "ImagePullBackOff", `Failed to pull image "nginx:no-such-tag"`} {
		if !seen[w] {
			t.Errorf("no Failed event saying %s", w)
		}
	}
}

// checkSecretRedacted checks that the imagepull scenario's pull secret
// is in etcd as a Secret whose value the recording redacted, and that its
// credential appears nowhere in the recording (out, its JSON): not as
// applied, decoded, nor base64-encoded again as etcd and the audit log
// would hold it.
func checkSecretRedacted(t *testing.T, out string, r recorded) {
	t.Helper()
	plain, err := base64.StdEncoding.DecodeString(record.PullSecretValue)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{record.PullSecretValue, string(plain), base64.StdEncoding.EncodeToString([]byte(record.PullSecretValue))} {
		if strings.Contains(out, v) {
			t.Errorf("the recording holds the pull secret's credential %q", v)
		}
	}
	k := etcdKey(t, r.Recording, "/registry/secrets/default/regcred")
	if len(k.Revisions) == 0 {
		t.Fatal("no revision of the pull secret's etcd key")
	}
	for _, rev := range k.Revisions {
		if !strings.Contains(rev.YAML, ".dockerconfigjson: "+record.Redacted) {
			t.Errorf("revision %d of the pull secret does not show its value redacted:\n%s", rev.Revision, rev.YAML)
		}
	}
}

// checkOrderedStart checks the statefulset scenario's order: the
// statefulset controller creates web-0, web-1 and web-2 in turn, each
// after the one before it started.
func checkOrderedStart(t *testing.T, r recorded) {
	t.Helper()
	// The controller creates the next pod once the one before is Running
	// and Ready, which it learns from the kubelet's status patch (the
	// Started event is posted on its own and may land later).
	created, ready := map[string]int64{}, map[string]int64{}
	for _, a := range r.Audit {
		switch {
		case a.Verb == "create" && a.Resource == "pods" && a.Subresource == "" && a.User == "system:serviceaccount:kube-system:statefulset-controller":
			created[a.Name] = a.At
		case a.IsWrite() && a.Resource == "pods" && a.Subresource == "status" && strings.HasPrefix(a.User, "system:node:"):
			if _, ok := ready[a.Name]; !ok {
				ready[a.Name] = a.At
			}
		}
	}
	for i, name := range []string{"web-0", "web-1", "web-2"} {
		if _, ok := created[name]; !ok {
			t.Errorf("the statefulset controller created no %s (created %v)", name, created)
			continue
		}
		if i == 0 {
			continue
		}
		prev := fmt.Sprintf("web-%d", i-1)
		if s, ok := ready[prev]; !ok || created[name] < s {
			t.Errorf("%s was created at %d ms, before the kubelet reported %s's status (%d ms, seen %v)", name, created[name], prev, s, ok)
		}
	}
}

// A scenario whose pods never run within --timeout is an error that says
// so, and leaves nothing running or on disk.
func TestE2ERecordTimeout(t *testing.T) {
	start := time.Now()
	_, stderr, code := run{}.do(t, "record", "--source", "goproxy", "--timeout", "1ms")
	if code != 1 || !strings.Contains(stderr, "Running pods") {
		t.Errorf("exit %d, want 1 with a timeout waiting for the pods:\n%s", code, stderr)
	}
	t.Logf("the timeout error came after %s", time.Since(start))
	if l := leftovers(t, cacheDir(t)); len(l) > 0 {
		t.Errorf("left behind:\n%s", strings.Join(l, "\n"))
	}
}
