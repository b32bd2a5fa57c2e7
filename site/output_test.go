package site

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kubewalk/kubewalk/internal/disk/publish"
	"github.com/kubewalk/kubewalk/internal/disk/safedir"
	"github.com/kubewalk/kubewalk/internal/disk/safedir/safedirtest"
)

// The output directory (issue 18): never missing, whenever the build is
// killed; what killed builds leave is swept; no lock in /tmp; files the
// site does not own are never deleted; a linked --out stays a link; what
// is published was synced first.

// TestHelperBuild is not a test: the tests below run it in a process of
// its own (KUBEWALK_SITE_HELPER_OUT set), under strace, to kill it at a
// chosen system call.
func TestHelperBuild(t *testing.T) {
	out := os.Getenv("KUBEWALK_SITE_HELPER_OUT")
	if out == "" {
		t.Skip("a helper process of the output tests")
	}
	in, opts := fixture(t)
	opts.Logf, opts.Out = nil, out
	if _, err := Build(context.Background(), in, opts); err != nil {
		t.Fatal(err)
	}
}

// underStrace runs TestHelperBuild into out under strace with the given
// options, and returns the command, started.
func underStrace(t *testing.T, out string, straceArgs ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperBuild$", "-test.count=1")
	cmd.Env = append(os.Environ(), "KUBEWALK_SITE_HELPER_OUT="+out)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	cmd = safedirtest.Wrap(t, cmd, straceArgs...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	return cmd
}

// renameSyscalls are the numbers of rename(2), renameat(2) and renameat2(2).
var renameSyscalls = map[string][]string{"amd64": {"82", "264", "316"}, "arm64": {"38", "276"}}

// killInRename waits until a thread of the process tree below strace
// (cmd) is stopped at the entry or exit of a rename, and kills its
// process: strace alone would let it go on. When the build ends first
// (it renames fewer times than the injection waits for), it returns.
func killInRename(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	nrs, ok := renameSyscalls[runtime.GOARCH]
	if !ok {
		t.Skipf("no rename syscall numbers for %s", runtime.GOARCH)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	deadline := time.After(3 * time.Minute)
	for {
		tasks, _ := filepath.Glob("/proc/[0-9]*/task/[0-9]*/syscall")
		for _, f := range tasks {
			b, err := os.ReadFile(f)
			if err != nil {
				continue
			}
			nr, _, _ := strings.Cut(string(b), " ")
			if !slices.Contains(nrs, nr) {
				continue
			}
			pid, _ := strconv.Atoi(strings.Split(f, "/")[2])
			if parent(pid) == cmd.Process.Pid {
				syscall.Kill(pid, syscall.SIGKILL)
				cmd.Process.Kill()
				<-exited
				return
			}
		}
		select {
		case <-exited:
			return
		case <-deadline:
			t.Fatal("the build neither reached a rename nor ended")
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// parent returns the parent process of pid, or 0.
func parent(pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// pid (comm) state ppid …, where comm may hold spaces but not ")".
	fields := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(fields) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(fields[1])
	return ppid
}

// killedAt rebuilds the site in out in a helper process that strace stops
// at a rename (inject picks which, and before or after it acts), kills
// the helper there, and returns the tree of out.
func killedAt(t *testing.T, out string, inject string) map[string]string {
	t.Helper()
	cmd := underStrace(t, out, "-o", "/dev/null", "-e", "inject="+inject)
	killInRename(t, cmd)
	if _, err := os.Lstat(out); err != nil {
		t.Fatalf("after a kill -9 at %s, --out is gone: %v", inject, err)
	}
	return readTree(t, out)
}

// TestOutSurvivesKill kills a build at each step of publishing its site:
// --out is the old site or the new one, complete, every time (the two
// renames of before left no --out between them), and the next build
// removes what the killed one left.
func TestOutSurvivesKill(t *testing.T) {
	if testing.Short() {
		t.Skip("builds in helper processes")
	}
	in, opts := fixture(t)
	opts.Logf = nil
	parent := t.TempDir()
	opts.Out = filepath.Join(parent, "public")
	if _, err := Build(context.Background(), in, opts); err != nil {
		t.Fatal(err)
	}
	site := readTree(t, opts.Out)
	for _, inject := range []string{
		// Before and after the first rename, whichever call it is.
		"rename,renameat,renameat2:delay_enter=60s:when=1",
		"rename,renameat,renameat2:delay_exit=60s:when=1",
		// The second rename: the old site was set aside by the first.
		"rename,renameat,renameat2:delay_enter=60s:when=2",
	} {
		t.Run(inject, func(t *testing.T) {
			got := killedAt(t, opts.Out, inject)
			if diff := cmp.Diff(site, got); diff != "" {
				t.Errorf("--out is not the site (-want +got):\n%s", diff)
			}
			if _, err := Build(context.Background(), in, opts); err != nil {
				t.Fatal(err)
			}
			if names := dirNames(t, parent); !slices.Equal(names, []string{"public"}) {
				t.Errorf("left beside the site after the next build: %v", names)
			}
		})
	}
}

// TestSweepsLeftovers: temporary directories of killed builds are removed
// by the next build into the same --out; one a live build holds, and
// those of other outputs, are not.
func TestSweepsLeftovers(t *testing.T) {
	in, opts := fixture(t)
	opts.Logf = nil
	parent := t.TempDir()
	opts.Out = filepath.Join(parent, "o")
	for _, d := range []string{".o.tmp-111", ".o.tmp-222", ".o.tmp-333", ".other.tmp-444"} {
		if err := os.MkdirAll(filepath.Join(parent, d, "walkthroughs"), 0o755); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(parent, d, "index.html"), []byte("half"), 0o644)
	}
	os.Chmod(filepath.Join(parent, ".o.tmp-222", "walkthroughs"), 0o555)
	live, err := safedir.TryLockDir(filepath.Join(parent, ".o.tmp-333"))
	if err != nil {
		t.Fatal(err)
	}
	defer live.Unlock()
	if _, err := Build(context.Background(), in, opts); err != nil {
		t.Fatal(err)
	}
	if names := dirNames(t, parent); !slices.Equal(names, []string{".o.tmp-333", ".other.tmp-444", "o"}) {
		t.Errorf("beside the site: %v, want the live build's and the other output's only", names)
	}
}

// TestNoLockInTmp: the lock of --out was /tmp/kubewalk-out-<hash>.lock,
// opened following links and never removed: a link planted at that name
// made a build create the file it pointed at.
func TestNoLockInTmp(t *testing.T) {
	in, opts := fixture(t)
	opts.Logf = nil
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	opts.Out = filepath.Join(t.TempDir(), "public")
	sum := sha256.Sum256([]byte(opts.Out))
	planted := filepath.Join(tmp, "kubewalk-out-"+hex.EncodeToString(sum[:8])+".lock")
	victim := filepath.Join(tmp, "victim")
	if err := os.Symlink(victim, planted); err != nil {
		t.Fatal(err)
	}
	if _, err := Build(context.Background(), in, opts); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(victim); err == nil {
		t.Error("the build created the file a planted link pointed at")
	}
	if names := dirNames(t, tmp); !slices.Equal(names, []string{filepath.Base(planted)}) {
		t.Errorf("the build left %v in the temporary directory", names)
	}
	if names := dirNames(t, filepath.Dir(opts.Out)); !slices.Equal(names, []string{"public"}) {
		t.Errorf("beside the site: %v", names)
	}
}

// TestKeepsFilesItDidNotWrite: a file added to a built site, at the top or
// deep inside, stops the next build with a message naming it; it used to
// be deleted with the old site.
func TestKeepsFilesItDidNotWrite(t *testing.T) {
	in, opts := fixture(t)
	opts.Logf = nil
	opts.Out = filepath.Join(t.TempDir(), "public")
	if _, err := Build(context.Background(), in, opts); err != nil {
		t.Fatal(err)
	}
	for _, extra := range []string{"important.txt", "src/pkg/notes.md", "drafts/a.md"} {
		t.Run(extra, func(t *testing.T) {
			p := filepath.Join(opts.Out, filepath.FromSlash(extra))
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte("mine"), 0o644); err != nil {
				t.Fatal(err)
			}
			before := readTree(t, opts.Out)
			_, err := Build(context.Background(), in, opts)
			if !errors.Is(err, ErrForeignFiles) {
				t.Fatalf("got %v, want %q", err, ErrForeignFiles)
			}
			name := extra
			if strings.HasPrefix(extra, "drafts/") {
				name = "drafts/"
			}
			if msg := err.Error(); !strings.Contains(msg, name) || !strings.Contains(msg, "move them out") {
				t.Errorf("message %q does not name %s and what to do", msg, name)
			}
			if diff := cmp.Diff(before, readTree(t, opts.Out)); diff != "" {
				t.Errorf("the refused build changed --out (-before +after):\n%s", diff)
			}
			os.RemoveAll(p)
			if extra == "drafts/a.md" {
				os.Remove(filepath.Dir(p))
			}
			if _, err := Build(context.Background(), in, opts); err != nil {
				t.Fatalf("once it is moved out: %v", err)
			}
		})
	}
	// The marker lists the site's files: the tree itself, no more.
	marker, err := os.ReadFile(filepath.Join(opts.Out, markerFile))
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for sc := bufio.NewScanner(strings.NewReader(strings.TrimPrefix(string(marker), publish.MarkerHeader))); sc.Scan(); {
		listed = append(listed, sc.Text())
	}
	var files []string
	for p := range readTree(t, opts.Out) {
		if p != markerFile {
			files = append(files, p)
		}
	}
	slices.Sort(files)
	if diff := cmp.Diff(files, listed); diff != "" {
		t.Errorf("the marker does not list the site (-files +listed):\n%s", diff)
	}
}

// TestOutLinkStaysALink: --out as a link to a site used to become a
// directory, the site it linked to left stale. The link stays; the site
// it leads to is the new one.
func TestOutLinkStaysALink(t *testing.T) {
	in, opts := fixture(t)
	opts.Logf = nil
	root := t.TempDir()
	target := filepath.Join(root, "sites", "v1")
	link := filepath.Join(root, "public")
	opts.Out = target
	if _, err := Build(context.Background(), in, opts); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(target, "index.html"), []byte("stale"), 0o644)
	if err := os.Symlink(filepath.Join("sites", "v1"), link); err != nil {
		t.Fatal(err)
	}
	opts.Out = link
	if _, err := Build(context.Background(), in, opts); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("--out is no longer a link: %v %v", fi.Mode(), err)
	}
	if b, _ := os.ReadFile(filepath.Join(target, "index.html")); string(b) == "stale" {
		t.Error("the site the link leads to was not rebuilt")
	}
	if names := dirNames(t, filepath.Join(root, "sites")); !slices.Equal(names, []string{"v1"}) {
		t.Errorf("beside the target: %v", names)
	}
	// A link to nothing is refused, and stays.
	dangling := filepath.Join(root, "dangling")
	os.Symlink("nowhere", dangling)
	opts.Out = dangling
	if _, err := Build(context.Background(), in, opts); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("a link to nothing: %v", err)
	}
}

// TestSyncsBeforePublishing: every file and directory of the new site is
// fsynced before the rename that publishes it (a crash of the machine
// could otherwise leave, after the rename, empty files in --out), and
// the parent directory after.
func TestSyncsBeforePublishing(t *testing.T) {
	if testing.Short() {
		t.Skip("builds in a helper process")
	}
	out := filepath.Join(t.TempDir(), "public")
	log := filepath.Join(t.TempDir(), "strace.log")
	cmd := underStrace(t, out, safedirtest.TraceSyncs(log)...)
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	files := readTree(t, out)
	synced := safedirtest.Synced(t, log, out)
	var tmp string
	for p := range synced {
		if i := strings.Index(p, "/.public.tmp-"); i >= 0 {
			tmp = p[:i+len("/.public.tmp-")+strings.IndexByte(p[i+len("/.public.tmp-"):]+"/", '/')]
			break
		}
	}
	if tmp == "" {
		t.Fatal("nothing in the temporary directory was synced")
	}
	for f := range files {
		if !synced[filepath.Join(tmp, filepath.FromSlash(f))] {
			t.Errorf("%s was not synced before the site was published", f)
		}
	}
	if !synced[tmp] {
		t.Error("the site's directory was not synced before it was published")
	}
	if _, ok := synced[filepath.Dir(out)]; !ok {
		t.Error("the parent directory was not synced after the rename")
	}
}
