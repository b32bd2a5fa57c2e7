package record

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"testing/fstest"

	"github.com/klauspost/compress/zstd"
	"time"

	"github.com/kubewalk/kubewalk/internal/testsupport/testfs"
	"github.com/kubewalk/kubewalk/walkthroughs"
)

// keptFS holds a kept recording of v1.37.2's deployment scenario.
func keptFS(t *testing.T) fstest.MapFS {
	t.Helper()
	data, err := (&Recording{Format: Format, Tag: "v1.37.2", Scenario: "deployment", GoVersion: "kept"}).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return fstest.MapFS{"recordings/v1.37.2/deployment.json": {Data: data}}
}

// writeCached writes data as the cached recording of tag and scenario.
func writeCached(t *testing.T, cache, tag, scenario string, data []byte) string {
	t.Helper()
	name := recordingPath(cache, tag, scenario)
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

// TestFindDamagedCache: a cached recording that is damaged, of another
// format, of another release or scenario (a copy, an edit), or whose
// scenario is a path or 300 bytes long, is a miss: Find returns the kept
// recording and an error naming the file, for one log line. It hid the
// kept one (the site lost its Recorded run page), was shown as another
// release's run, or failed the whole build with no file named.
func TestFindDamagedCache(t *testing.T) {
	good, err := (&Recording{Format: Format, Tag: "v1.37.2", Scenario: "deployment", GoVersion: "cached"}).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	edit := func(old, new string) []byte {
		if !strings.Contains(string(good), old) {
			t.Fatalf("the recording has no %s to damage", old)
		}
		return []byte(strings.Replace(string(good), old, new, 1))
	}
	for name, data := range map[string][]byte{
		"truncated":      good[:len(good)/2],
		"empty":          {},
		"other format":   edit(`"format": `+strconv.Itoa(Format)+`,`, `"format": 0,`),
		"other release":  edit(`"tag": "v1.37.2"`, `"tag": "v1.36.3"`),
		"other scenario": edit(`"scenario": "deployment"`, `"scenario": "scale"`),
		"a path":         edit(`"scenario": "deployment"`, `"scenario": "../../deployment"`),
		"300 bytes":      edit(`"scenario": "deployment"`, `"scenario": "`+strings.Repeat("d", 300)+`"`),
	} {
		t.Run(name, func(t *testing.T) {
			cache := t.TempDir()
			file := writeCached(t, cache, "v1.37.2", "deployment", data)
			rec, err := Find(cache, keptFS(t), "v1.37.2", "deployment")
			if rec == nil || rec.GoVersion != "kept" {
				t.Errorf("Find = %+v, want the kept recording", rec)
			}
			if !errors.Is(err, ErrCacheIgnored) || !strings.Contains(err.Error(), file) {
				t.Errorf("err = %v, want ErrCacheIgnored naming %s", err, file)
			}
			if err != nil && len(err.Error()) > 400 {
				t.Errorf("a message of %d bytes", len(err.Error()))
			}
			// Without a kept one, nothing, and the same word.
			rec, err = Find(cache, fstest.MapFS{}, "v1.37.2", "deployment")
			if rec != nil || !errors.Is(err, ErrCacheIgnored) {
				t.Errorf("no kept one: %v, %v", rec, err)
			}
			// --cached asks for this very file: an error.
			if rec, err := Cached(cache, "v1.37.2", "deployment"); rec != nil || err == nil {
				t.Errorf("Cached = %v, %v; want an error", rec, err)
			}
		})
	}
	// A good cached recording wins over the kept one.
	cache := t.TempDir()
	writeCached(t, cache, "v1.37.2", "deployment", good)
	if rec, err := Find(cache, keptFS(t), "v1.37.2", "deployment"); err != nil || rec == nil || rec.GoVersion != "cached" {
		t.Errorf("Find = %+v, %v; want the cached recording", rec, err)
	}
}

// TestScenarioAndTagNames: a scenario that is not one of Scenarios, or a
// tag that is not one path element, is refused before any file is read;
// `record --cached --scenario ../../../../tmp/x` read any JSON file as a
// recording.
func TestScenarioAndTagNames(t *testing.T) {
	cache := t.TempDir()
	// A recording where ../ would lead.
	outside := filepath.Join(cache, "x.json")
	data, err := (&Recording{Format: Format, Tag: "v1.37.2", Scenario: "../../../x"}).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(outside, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ tag, scenario string }{
		{"v1.37.2", "../../../x"},
		{"v1.37.2", "nope"},
		{"v1.37.2", ""},
		{"../..", "deployment"},
		{"v1.37.2/../..", "deployment"},
		{"", "deployment"},
	} {
		if rec, err := Cached(cache, tt.tag, tt.scenario); rec != nil || err == nil {
			t.Errorf("Cached(%q, %q) = %v, %v; want an error", tt.tag, tt.scenario, rec, err)
		}
		if rec, err := Find(cache, fstest.MapFS{}, tt.tag, tt.scenario); rec != nil || err == nil || errors.Is(err, ErrCacheIgnored) {
			t.Errorf("Find(%q, %q) = %v, %v; want an error", tt.tag, tt.scenario, rec, err)
		}
		if _, err := Save(cache, &Recording{Format: Format, Tag: tt.tag, Scenario: tt.scenario}); err == nil {
			t.Errorf("Save(%q, %q) wrote", tt.tag, tt.scenario)
		}
	}
}

// TestKeptRecordingsAreTheirs: every recording kubewalk ships is of the
// release and scenario its path says, so Find takes it.
func TestKeptRecordingsAreTheirs(t *testing.T) {
	kept, err := keptNames(walkthroughs.Recordings)
	if err != nil || len(kept) == 0 {
		t.Fatal(kept, err)
	}
	for _, k := range kept {
		if rec, err := Find(t.TempDir(), walkthroughs.Recordings, k[0], k[1]); err != nil || rec == nil {
			t.Errorf("%s/%s: %v, %v", k[0], k[1], rec, err)
		}
	}
}

// FuzzParseRecording: Parse never panics, and what it accepts marshals and
// parses back to the same recording.
func FuzzParseRecording(f *testing.F) {
	kept, _ := keptNames(walkthroughs.Recordings)
	for _, k := range kept {
		_, data, err := readKept(walkthroughs.Recordings, k[0], k[1])
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"format":1,"tag":"v1.37.2","scenario":"deployment","events":null,"audit":[{"at":-5}]}`))
	f.Add([]byte(`{"format":1,"tag":"v1.37.2","scenario":"../x","keys":[{"key":"/registry/pods/default/a"}]}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := Parse("r.json", data)
		if err != nil {
			return
		}
		out, err := rec.Marshal()
		if err != nil {
			t.Fatalf("Marshal of a parsed recording: %v", err)
		}
		again, err := Parse("r.json", out)
		if err != nil {
			t.Fatalf("a marshalled recording does not parse: %v", err)
		}
		if out2, _ := again.Marshal(); string(out2) != string(out) {
			t.Errorf("marshal, parse, marshal changed the recording")
		}
	})
}

// FuzzCollectAudit: an audit log of any content is read or refused with an
// error naming the file, never a panic; what is read is writes that
// completed and watches that started, timed from the first write by
// kubectl.
func FuzzCollectAudit(f *testing.F) {
	kubectl := `{"stage":"ResponseComplete","verb":"create","requestURI":"/apis/apps/v1/namespaces/default/deployments","userAgent":"kubectl/v1.37.2","objectRef":{"resource":"deployments","namespace":"default","apiGroup":"apps","apiVersion":"v1"},"responseStatus":{"code":201},"requestObject":{"kind":"Deployment","metadata":{"name":"nginx"}},"requestReceivedTimestamp":"2026-11-24T08:00:10.000000Z"}`
	watch := `{"stage":"ResponseStarted","verb":"watch","requestURI":"/api/v1/pods?watch=true","userAgent":"kube-scheduler/v1.37.2","objectRef":{"resource":"pods","apiVersion":"v1"},"responseStatus":{"code":200},"requestReceivedTimestamp":"2026-11-24T08:00:09.000000Z"}`
	f.Add([]byte(kubectl + "\n" + watch + "\n"))
	f.Add([]byte(watch + "\n" + kubectl))
	f.Add([]byte(kubectl + "\n{\"stage\":"))
	f.Add([]byte("\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		log := filepath.Join(t.TempDir(), "audit.log")
		if err := os.WriteFile(log, data, 0o644); err != nil {
			t.Fatal(err)
		}
		rec := &Recording{Format: Format, Tag: "v1.37.2", Scenario: "deployment"}
		if err := (&run{auditLog: log}).collectAudit(rec); err != nil {
			if !strings.Contains(err.Error(), log) && !strings.Contains(err.Error(), "the audit log") {
				t.Errorf("error names no file: %v", err)
			}
			return
		}
		kubectlSeen := false
		for _, a := range rec.Audit {
			if !(a.IsWrite() && a.Stage == "ResponseComplete") && !(a.Verb == "watch" && a.Stage == "ResponseStarted") {
				t.Errorf("entry %+v is neither a completed write nor a started watch", a)
			}
			if a.IsWrite() && strings.HasPrefix(a.UserAgent, "kubectl/") && !kubectlSeen {
				kubectlSeen = true
				if a.At != 0 {
					t.Errorf("the first write by kubectl at %d ms, want 0 (the origin)", a.At)
				}
			}
		}
		if !kubectlSeen {
			t.Error("read without a write by kubectl")
		}
	})
}

// bigRecording is a recording of tag of about n KiB.
func bigRecording(tag string, n int) *Recording {
	rec := &Recording{Format: Format, Tag: tag, Scenario: "deployment"}
	for i := range n {
		rec.Events = append(rec.Events, Event{At: int64(i), Reason: "Scaled", Message: strings.Repeat("m", 900)})
	}
	return rec
}

// TestSaveDiskFull: a recording that does not fit on the disk is an error
// saying so; the recording saved before is whole, nothing is left beside
// it, and the save succeeds once there is room.
func TestSaveDiskFull(t *testing.T) {
	cache := testfs.Small(t, 1<<20)
	if _, err := Save(cache, bigRecording("v1.37.2", 1)); err != nil {
		t.Fatal(err)
	}
	filler := testfs.Fill(t, cache, 8<<10)
	_, err := Save(cache, bigRecording("v1.37.2", 200))
	if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "no space") {
		t.Fatalf("err = %v, want no space left", err)
	}
	if rec, err := Cached(cache, "v1.37.2", "deployment"); err != nil || rec == nil || len(rec.Events) != 1 {
		t.Errorf("the recording saved before: %v, %v", rec, err)
	}
	dir := filepath.Dir(recordingPath(cache, "v1.37.2", "deployment"))
	if l := leftovers(t, dir); len(l) != 1 {
		t.Errorf("beside the recording: %v", l)
	}
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	if _, err := Save(cache, bigRecording("v1.37.2", 200)); err != nil {
		t.Fatalf("with room again: %v", err)
	}
	if rec, err := Cached(cache, "v1.37.2", "deployment"); err != nil || rec == nil || len(rec.Events) != 200 {
		t.Errorf("the new recording: %d events, %v", len(rec.Events), err)
	}
}

// TestTwoReleasesAtOnce: two records of different releases at once keep
// apart: each saves its own recording whole, and two runs that fail leave
// nothing behind.
func TestTwoReleasesAtOnce(t *testing.T) {
	cache := t.TempDir()
	var wg sync.WaitGroup
	errs := make(chan error, 2*20)
	for _, tag := range []string{"v1.36.3", "v1.37.2"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 20 {
				if _, err := Save(cache, bigRecording(tag, 1+i%3)); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for _, tag := range []string{"v1.36.3", "v1.37.2"} {
		if rec, err := Cached(cache, tag, "deployment"); err != nil || rec == nil || rec.Tag != tag {
			t.Errorf("%s: %v, %v", tag, rec, err)
		}
	}

	tmp := isolatedTemp(t)
	bins := fakeBins(t, map[string]string{"etcd": "echo 'bind: address already in use' >&2\nexit 1"})
	other := *bins
	other.Tag = "v1.37.2"
	runErrs := make(chan error, 2)
	for _, b := range []*Binaries{bins, &other} {
		go func() {
			_, err := Run(context.Background(), b, RunOptions{})
			runErrs <- err
		}()
	}
	for range 2 {
		if err := <-runErrs; !errors.Is(err, ErrComponent) {
			t.Errorf("err = %v, want ErrComponent", err)
		}
	}
	if l := leftovers(t, tmp); len(l) > 0 {
		t.Errorf("left behind in TMPDIR: %v", l)
	}
}

// A component that exits while the run waits for another ends the run at
// once with its own failure (its name, exit status and log), not with the
// timeout of the other's wait; nothing is left running or on disk.
func TestRunComponentExitsMidRun(t *testing.T) {
	tmp := isolatedTemp(t)
	pids := t.TempDir()
	// The test answers etcd's health check, so that the run goes on to
	// the API server, which never becomes ready. It answers only once the
	// fake etcd has written its line, so the line is in the log before
	// etcd is killed.
	ready := filepath.Join(pids, "etcd-ready")
	health := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if _, err := os.Stat(ready); err != nil {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}))
	defer health.Close()
	ports, err := freePorts(6)
	if err != nil {
		t.Fatal(err)
	}
	ports[0] = health.Listener.Addr().(*net.TCPAddr).Port
	bins := fakeBins(t, map[string]string{
		"etcd":           "echo etcd serving\n: > " + ready + "\nwhile :; do sleep 1; done",
		"kube-apiserver": "while :; do sleep 1; done",
	})
	// etcd is killed once the API server has started, by the pid the run
	// reported; the API server's is kept to see that it was stopped.
	var etcdPid, apiPid int
	logf := func(format string, args ...any) {
		line := fmt.Sprintf(format, args...)
		fmt.Sscanf(line, "started etcd (pid %d)", &etcdPid)
		if _, err := fmt.Sscanf(line, "started kube-apiserver (pid %d)", &apiPid); err == nil && etcdPid > 0 {
			if err := os.WriteFile(filepath.Join(pids, "apiserver"), []byte(strconv.Itoa(apiPid)), 0o644); err != nil {
				t.Error(err)
			}
			syscall.Kill(etcdPid, syscall.SIGKILL)
		}
	}
	_, err = Run(context.Background(), bins, RunOptions{ports: ports, Logf: logf, grace: 200 * time.Millisecond})
	// The component's failure alone, not wrapped in the words of the wait
	// it ended.
	if !errors.Is(err, ErrComponent) || !strings.HasPrefix(err.Error(), ErrComponent.Error()+": etcd exited") {
		t.Fatalf("err = %v, want etcd's failure alone", err)
	}
	for _, want := range []string{"signal: killed", "etcd serving"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if alive(t, filepath.Join(pids, "apiserver")) {
		t.Error("the API server still runs after Run returned")
	}
	if l := leftovers(t, tmp); len(l) > 0 {
		t.Errorf("left behind in TMPDIR: %v", l)
	}
}

// A coverage snapshot asked of a component that dies of it ends the phase
// at once with that component's failure, even while the phase still waits
// for the counters of another that never writes them.
func TestPhaseComponentDiesOfSnapshot(t *testing.T) {
	tmp := isolatedTemp(t)
	dir := filepath.Join(tmp, "run")
	for _, d := range []string{"logs", "home", "tmp"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	ctx, crashed := context.WithCancelCause(context.Background())
	defer crashed(nil)
	r := &run{dir: dir, grace: 200 * time.Millisecond, crashed: crashed, cover: newCoverRun(ctx, filepath.Join(dir, "cover"))}
	defer r.cover.stop()
	defer r.stopAll()
	// The scheduler's stand-in ignores SIGUSR1 and never writes counters;
	// the kubelet's dies of it (a shell's default for the signal).
	for name, script := range map[string]string{
		"kube-scheduler": "trap '' USR1\ntouch started-scheduler\nwhile :; do sleep 1; done",
		"kubelet":        "echo kubelet up\ntouch started-kubelet\nwhile :; do sleep 1; done",
	} {
		bin := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(bin, []byte("#!/bin/sh\n"+script+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		if _, err := r.start(name, bin); err != nil {
			t.Fatal(err)
		}
	}
	// Both have set their traps before the signal.
	err := r.waitFor(ctx, nil, "both started", 10*time.Second, func(context.Context) (bool, error) {
		_, err1 := os.Stat(filepath.Join(dir, "started-scheduler"))
		_, err2 := os.Stat(filepath.Join(dir, "started-kubelet"))
		return err1 == nil && err2 == nil, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = r.phase(ctx, "startup")
	if !errors.Is(err, ErrComponent) || errors.Is(err, ErrTimeout) {
		t.Fatalf("err = %v, want the kubelet's failure and no timeout", err)
	}
	for _, want := range []string{"kubelet exited", "signal: user defined signal 1", "kubelet up"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
}

// TestRunDiskFull: a run whose temporary directory's file system is full,
// from the start or once a component has filled it, is one error saying
// that the disk is full and where, and nothing is left there.
func TestRunDiskFull(t *testing.T) {
	for name, tt := range map[string]struct {
		keep int64
		etcd string
	}{
		"full at the start": {0, "while :; do sleep 1; done"},
		"filled by etcd":    {256 << 10, "cat /dev/zero > fill\necho 'etcd: write fill: no space left on device' >&2\nexit 1"},
	} {
		t.Run(name, func(t *testing.T) {
			tmp := testfs.Small(t, 1<<20)
			t.Setenv("TMPDIR", tmp)
			filler := testfs.Fill(t, tmp, tt.keep)
			bins := fakeBins(t, map[string]string{"etcd": tt.etcd})
			_, err := Run(context.Background(), bins, RunOptions{grace: 200 * time.Millisecond})
			if err == nil || !strings.Contains(err.Error(), "the file system of the run directory "+tmp+" has no space left") || !strings.Contains(err.Error(), "set TMPDIR") {
				t.Errorf("err = %v, want no space left in %s and what to do", err, tmp)
			}
			if l := leftovers(t, tmp); len(l) != 1 || l[0] != filepath.Base(filler) {
				t.Errorf("left behind in TMPDIR: %v", l)
			}
		})
	}
}

// TestRunInterruptedAtEachPhase: Ctrl-C as the components start, while
// kubectl applies the manifest and while the run waits for the pods ends
// the run with context.Canceled at once; no process it started (kubectl's
// children included), no port and no run directory is left. kubectl's
// child held its output and kept the run waiting after the cancel, and
// the run failed with "kubectl apply …: signal: killed".
func TestRunInterruptedAtEachPhase(t *testing.T) {
	standIn := buildStandIn(t)
	for _, at := range []string{"started etcd", "started kube-apiserver", "started kubelet", "kubectl apply", "waiting for"} {
		t.Run(at, func(t *testing.T) {
			tmp := isolatedTemp(t)
			// kubectl starts a child, as a credential plugin may: at the
			// apply it waits for it, which holds its output; before the
			// wait for the pods it returns and leaves it behind.
			child := filepath.Join(t.TempDir(), "kubectl-child")
			kubectl := "sleep 300 > /dev/null 2>&1 &\necho $! > " + child
			if at == "kubectl apply" {
				kubectl = "sleep 300 &\necho $! > " + child + "\nwait"
			}
			// Cancelled once what the line announces is under way.
			interruptRun(t, standInBins(t, standIn, kubectl), at, 300*time.Millisecond, 200*time.Millisecond)
			if _, err := os.Stat(child); err == nil && alive(t, child) {
				t.Error("kubectl's child still runs")
			} else if err != nil && (at == "kubectl apply" || at == "waiting for") {
				t.Errorf("kubectl did not run: %v", err)
			}
			if l := leftovers(t, tmp); len(l) > 0 {
				t.Errorf("left behind in TMPDIR: %v", l)
			}
		})
	}
}

// interruptRun runs bins and cancels the run delay after a line of its
// log starts with at (at once for 0); Run must end with context.Canceled,
// within seconds of it, with no process it started running and no port
// of its components taken. grace is RunOptions.grace.
func interruptRun(t *testing.T, bins *Binaries, at string, delay, grace time.Duration) {
	t.Helper()
	ports, err := freePorts(6)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var s started
	var cancelled atomic.Int64 // the cancel's time, in Unix nanoseconds
	stop := func() {
		cancelled.Store(time.Now().UnixNano())
		cancel()
	}
	logf := func(format string, args ...any) {
		line := fmt.Sprintf(format, args...)
		t.Log(line)
		s.note(line)
		if strings.HasPrefix(line, at) {
			if delay == 0 {
				stop()
			} else {
				time.AfterFunc(delay, stop)
			}
		}
	}
	start := time.Now()
	_, err = Run(ctx, bins, RunOptions{ports: ports, Logf: logf, grace: grace, Timeout: time.Minute})
	if !errors.Is(err, context.Canceled) || cancelled.Load() == 0 {
		t.Errorf("err = %v, want context.Canceled after the cancel", err)
	} else if d := time.Since(time.Unix(0, cancelled.Load())); d > 15*time.Second {
		t.Errorf("Run returned %s after the cancel", d)
	}
	t.Logf("returned %s after the start", time.Since(start).Round(time.Millisecond))
	s.checkStopped(t)
	checkPortsFree(t, ports)
}

// started collects the pids a run's log reports ("started etcd (pid
// 123)"), so that only this test's processes are looked for and killed:
// others may record with the same programs at the same time.
type started struct {
	mu   sync.Mutex
	pids map[string]int
}

var startedRE = regexp.MustCompile(`^started (\S+) \(pid (\d+)\)`)

func (s *started) note(line string) {
	if m := startedRE.FindStringSubmatch(line); m != nil {
		pid, _ := strconv.Atoi(m[2])
		s.mu.Lock()
		if s.pids == nil {
			s.pids = map[string]int{}
		}
		s.pids[m[1]] = pid
		s.mu.Unlock()
	}
}

func (s *started) pid(name string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pids[name]
}

// checkStopped fails t for each process s saw started that still runs.
func (s *started) checkStopped(t *testing.T) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	for name, pid := range s.pids {
		if running(pid) {
			t.Errorf("%s (pid %d) still runs", name, pid)
		}
	}
}

// checkPortsFree fails t for each of ports that something still listens
// on.
func checkPortsFree(t *testing.T, ports []int) {
	t.Helper()
	for _, p := range ports {
		l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(p))
		if err != nil {
			t.Errorf("port %d still taken: %v", p, err)
			continue
		}
		l.Close()
	}
}

// running reports whether pid is a live process, not a zombie.
func running(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	return err == nil && !strings.Contains(string(b), ") Z")
}

// TestRunPortTakenAtEachStart: a port another program holds, for each
// component that listens in turn, is one error naming that component,
// and nothing is left running or listening.
func TestRunPortTakenAtEachStart(t *testing.T) {
	isolatedTemp(t)
	bins := standInBins(t, buildStandIn(t), "exit 0")
	// In the order of RunOptions.ports; the stand-ins of etcd's peer
	// port and of the kubelet do not listen.
	for i, name := range map[int]string{0: "etcd", 2: "kube-apiserver", 3: "kube-controller-manager", 4: "kube-scheduler"} {
		t.Run(name, func(t *testing.T) {
			held, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer held.Close()
			ports, err := freePorts(6)
			if err != nil {
				t.Fatal(err)
			}
			ports[i] = held.Addr().(*net.TCPAddr).Port
			var s started
			_, err = Run(context.Background(), bins, RunOptions{ports: ports, Logf: func(f string, a ...any) { s.note(fmt.Sprintf(f, a...)) }, grace: 200 * time.Millisecond})
			if !errors.Is(err, ErrComponent) || !strings.Contains(err.Error(), ": "+name+" exited") || !strings.Contains(err.Error(), "address already in use") {
				t.Errorf("err = %v, want %s's failure with its log's words", err, name)
			}
			held.Close()
			s.checkStopped(t)
			checkPortsFree(t, ports)
		})
	}
}

// TestPortsHeldUntilTheirComponentStarts: the ports a run picks stay
// bound until the component that listens on each starts, so a second run
// looking for free ports meanwhile cannot be given one; the component then
// binds its own, and stopping the run frees the ports of components it
// never started.
func TestPortsHeldUntilTheirComponentStarts(t *testing.T) {
	standIn := buildStandIn(t)
	dir := t.TempDir()
	r := &run{dir: dir, grace: 200 * time.Millisecond}
	defer r.stopAll()
	var err error
	var ports []int
	r.held, ports, err = holdPorts("kube-scheduler", "kube-controller-manager")
	if err != nil {
		t.Fatal(err)
	}
	taken := func(port int) bool {
		l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
		if err == nil {
			l.Close()
		}
		return err != nil
	}
	if !taken(ports[0]) || !taken(ports[1]) {
		t.Fatalf("ports %v are free before any component started", ports)
	}
	p, err := r.start("kube-scheduler", standIn, "kube-scheduler", "--secure-port="+strconv.Itoa(ports[0]))
	if err != nil {
		t.Fatal(err)
	}
	err = r.waitFor(context.Background(), p, "listening", 10*time.Second, func(context.Context) (bool, error) {
		c, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(ports[0]))
		if err != nil {
			return false, err
		}
		c.Close()
		return true, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !taken(ports[1]) {
		t.Errorf("the controller manager's port %d was freed when the scheduler started", ports[1])
	}
	r.stopAll()
	checkPortsFree(t, ports)
}

// TestRunComponentCrashesWhileWaiting: the controller manager killed while
// the run waits for the pods ends the run at once with one error naming
// it, and nothing is left.
func TestRunComponentCrashesWhileWaiting(t *testing.T) {
	tmp := isolatedTemp(t)
	bins := standInBins(t, buildStandIn(t), "exit 0")
	var s started
	logf := func(format string, args ...any) {
		line := fmt.Sprintf(format, args...)
		s.note(line)
		if strings.HasPrefix(line, "waiting for") {
			time.AfterFunc(300*time.Millisecond, func() { syscall.Kill(s.pid("kube-controller-manager"), syscall.SIGKILL) })
		}
	}
	start := time.Now()
	_, err := Run(context.Background(), bins, RunOptions{Logf: logf, grace: 200 * time.Millisecond, Timeout: time.Minute})
	if !errors.Is(err, ErrComponent) || !strings.HasPrefix(err.Error(), ErrComponent.Error()+": kube-controller-manager exited") || !strings.Contains(err.Error(), "signal: killed") {
		t.Errorf("err = %v, want the controller manager's failure alone", err)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("the crash was noticed after %s", d)
	}
	s.checkStopped(t)
	if l := leftovers(t, tmp); len(l) > 0 {
		t.Errorf("left behind in TMPDIR: %v", l)
	}
}

// TestTwoReleasesRunAtOnce: runs of two releases at once, both as far as
// the wait for the pods, keep to their own ports and run directories, and
// Ctrl-C leaves nothing of either.
func TestTwoReleasesRunAtOnce(t *testing.T) {
	tmp := isolatedTemp(t)
	standIn := buildStandIn(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var waiting sync.WaitGroup
	waiting.Add(2)
	go func() {
		waiting.Wait()
		cancel()
	}()
	var ss [2]started
	errs := make(chan error, 2)
	for i, tag := range []string{"v1.36.3", "v1.37.2"} {
		bins := standInBins(t, standIn, "exit 0")
		bins.Tag = tag
		var once sync.Once
		logf := func(format string, args ...any) {
			line := fmt.Sprintf(format, args...)
			ss[i].note(line)
			if strings.HasPrefix(line, "waiting for") {
				once.Do(waiting.Done)
			}
		}
		go func() {
			_, err := Run(ctx, bins, RunOptions{Logf: logf, grace: 200 * time.Millisecond, Timeout: time.Minute})
			errs <- err
		}()
	}
	for range 2 {
		if err := <-errs; !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled once both waited for their pods", err)
		}
	}
	for i := range ss {
		ss[i].checkStopped(t)
	}
	if l := leftovers(t, tmp); len(l) > 0 {
		t.Errorf("left behind in TMPDIR: %v", l)
	}
}

// TestFindKeptCompressed: a kept recording is read from its .json.zst,
// which comes before a .json beside it; a damaged one is an error naming
// it, not a recording.
func TestFindKeptCompressed(t *testing.T) {
	plain := keptFS(t)["recordings/v1.37.2/deployment.json"].Data
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	packed, err := (&Recording{Format: Format, Tag: "v1.37.2", Scenario: "deployment", GoVersion: "packed"}).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	packed = enc.EncodeAll(packed, nil)
	enc.Close()
	for name, tc := range map[string]struct {
		fs      fstest.MapFS
		version string
		err     string
	}{
		"compressed alone": {fs: fstest.MapFS{"recordings/v1.37.2/deployment.json.zst": {Data: packed}}, version: "packed"},
		"compressed first": {fs: fstest.MapFS{"recordings/v1.37.2/deployment.json.zst": {Data: packed}, "recordings/v1.37.2/deployment.json": {Data: plain}}, version: "packed"},
		"plain":            {fs: fstest.MapFS{"recordings/v1.37.2/deployment.json": {Data: plain}}, version: "kept"},
		"damaged":          {fs: fstest.MapFS{"recordings/v1.37.2/deployment.json.zst": {Data: packed[:len(packed)/2]}}, err: "deployment.json.zst"},
	} {
		t.Run(name, func(t *testing.T) {
			rec, err := Find(t.TempDir(), tc.fs, "v1.37.2", "deployment")
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || rec != nil {
					t.Errorf("Find = %v, %v; want an error naming %s", rec, err, tc.err)
				}
				return
			}
			if err != nil || rec == nil || rec.GoVersion != tc.version {
				t.Errorf("Find = %+v, %v; want the %s recording", rec, err, tc.version)
			}
		})
	}
	// Load reads a kept file by its path, as explain --recording does.
	f := filepath.Join(t.TempDir(), "deployment.json.zst")
	if err := os.WriteFile(f, packed, 0o644); err != nil {
		t.Fatal(err)
	}
	if rec, err := Load(f); err != nil || rec.GoVersion != "packed" {
		t.Errorf("Load(%s) = %+v, %v", f, rec, err)
	}
	if err := os.WriteFile(f, packed[:len(packed)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(f); err == nil || !strings.Contains(err.Error(), f) {
		t.Errorf("Load of a damaged %s: %v, want an error naming it", f, err)
	}
	names, err := keptNames(fstest.MapFS{"recordings/v1.37.2/job.json.zst": {Data: packed}, "recordings/v1.36.3/deployment.json": {Data: plain}})
	if err != nil || !slices.Equal(names, [][2]string{{"v1.36.3", "deployment"}, {"v1.37.2", "job"}}) {
		t.Errorf("keptNames = %v, %v", names, err)
	}
}
