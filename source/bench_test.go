package source

import (
	"context"
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// BenchmarkFetchCached is what every kubewalk command pays for its tree
// once the tag is cached.
func BenchmarkFetchCached(b *testing.B) {
	cache := b.TempDir()
	opts := gitOptions(b, cache, "v1.31.0")
	opts.Logger = nil
	if _, err := Fetch(context.Background(), opts); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Fetch(context.Background(), opts); err != nil {
			b.Fatal(err)
		}
	}
}

// benchTag is the tag of the benchmark mirror.
const benchTag = "v1.36.3"

// benchMirror returns a file:// URL of a bare repository with benchTag on
// a commit of a tree: KUBEWALK_BENCH_TREE (`make bench` passes the
// goproxy tree of the default tag, ~23k files) if set, else a generated
// tree of 3,000 Go-like files. With KUBEWALK_E2E_CACHE set, the mirror is
// kept there and reused by later runs.
func benchMirror(b *testing.B) string {
	b.Helper()
	tree := os.Getenv("KUBEWALK_BENCH_TREE")
	root := b.TempDir()
	if c := os.Getenv("KUBEWALK_E2E_CACHE"); c != "" && tree != "" {
		root = filepath.Join(c, "bench", fmt.Sprintf("mirror-%x", sha256.Sum256([]byte(tree)))[:len("mirror-")+16])
	}
	mirror := filepath.Join(root, "mirror.git")
	if _, err := os.Stat(filepath.Join(mirror, "refs", "tags", benchTag)); err == nil {
		return "file://" + mirror
	}
	if tree == "" {
		tree = filepath.Join(root, "tree")
		if err := generateTree(tree, 3000); err != nil {
			b.Fatal(err)
		}
	}
	os.RemoveAll(mirror)
	start := time.Now()
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-c", "gc.auto=0"}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_DIR="+mirror, "GIT_WORK_TREE="+tree,
			"GIT_AUTHOR_NAME=bench", "GIT_AUTHOR_EMAIL=bench@example.com", "GIT_COMMITTER_NAME=bench", "GIT_COMMITTER_EMAIL=bench@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	if out, err := exec.Command("git", "init", "-q", "--bare", mirror).CombinedOutput(); err != nil {
		b.Fatalf("git init: %v\n%s", err, out)
	}
	git("add", "-A", ".")
	git("commit", "-q", "-m", "release "+benchTag)
	git("tag", "-a", "-m", "Kubernetes "+benchTag, benchTag)
	git("repack", "-adq")
	b.Logf("built mirror of %s in %v", tree, time.Since(start))
	return "file://" + mirror
}

// generateTree writes n Go-like files of a few KiB in nested directories.
func generateTree(dir string, n int) error {
	r := rand.New(rand.NewPCG(1, 2))
	words := strings.Fields("func return if err != nil ctx context Context client informer queue Add Get List Watch ReplicaSet Deployment Pod spec status metadata name namespace label selector")
	for i := range n {
		p := filepath.Join(dir, fmt.Sprintf("pkg/d%02d/s%02d/file%04d.go", i%37, i%11, i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		var sb strings.Builder
		fmt.Fprintf(&sb, "package s%02d\n\n", i%11)
		for sb.Len() < 2048+r.IntN(4096) {
			for range 8 {
				sb.WriteString(words[r.IntN(len(words))])
				sb.WriteByte(' ')
			}
			sb.WriteString("\n")
		}
		if err := os.WriteFile(p, []byte(sb.String()), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func cloneGoGit(b *testing.B, url, dir string) {
	if _, err := cloneTag(context.Background(), url, benchTag, dir, nil); err != nil {
		b.Fatal(err)
	}
}

// cloneGit runs git clone and returns its peak resident memory in bytes.
func cloneGit(b *testing.B, url, dir string) int64 {
	cmd := exec.Command("git", "clone", "-q", "--depth", "1", "--single-branch", "--no-tags", "--branch", benchTag, url, dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("git clone: %v\n%s", err, out)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss * 1024 // KiB on Linux
	}
	return 0
}

// cpuTime is the user and system time of this process and of the
// children it has waited for (git clone, and the git-upload-pack go-git
// runs for a file:// remote).
func cpuTime() time.Duration {
	var self, children syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &children)
	return time.Duration(self.Utime.Nano() + self.Stime.Nano() + children.Utime.Nano() + children.Stime.Nano())
}

// BenchmarkClone compares go-git's depth-1 clone of one tag (what the git
// backend does) with git clone --depth 1 of the same tag, from the same
// local mirror over file:// (so git does not hard-link objects). The
// ratio sub-benchmark runs both in each iteration, so the ratio comes from
// one run on one machine state.
func BenchmarkClone(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("no git command")
	}
	url := benchMirror(b)
	clean := func(dir string) {
		b.StopTimer()
		os.RemoveAll(dir)
		b.StartTimer()
	}
	b.Run("go-git", func(b *testing.B) {
		dir := filepath.Join(b.TempDir(), "k")
		for b.Loop() {
			cloneGoGit(b, url, dir)
			clean(dir)
		}
	})
	b.Run("git", func(b *testing.B) {
		dir := filepath.Join(b.TempDir(), "k")
		var rss int64
		for b.Loop() {
			rss = max(rss, cloneGit(b, url, dir))
			clean(dir)
		}
		b.ReportMetric(float64(rss)/(1<<20), "git-maxrss-MiB")
	})
	b.Run("ratio", func(b *testing.B) {
		dir := filepath.Join(b.TempDir(), "k")
		var goGit, gitCLI, goGitCPU, gitCPU time.Duration
		for b.Loop() {
			c0, t0 := cpuTime(), time.Now()
			cloneGoGit(b, url, dir)
			t1, c1 := time.Now(), cpuTime()
			clean(dir)
			c2, t2 := cpuTime(), time.Now()
			cloneGit(b, url, dir)
			t3, c3 := time.Now(), cpuTime()
			clean(dir)
			goGit += t1.Sub(t0)
			gitCLI += t3.Sub(t2)
			goGitCPU += c1 - c0
			gitCPU += c3 - c2
		}
		b.ReportMetric(goGit.Seconds()/gitCLI.Seconds(), "go-git/git")
		b.ReportMetric(goGit.Seconds()/float64(b.N), "go-git-s/op")
		b.ReportMetric(gitCLI.Seconds()/float64(b.N), "git-s/op")
		// CPU time (user+sys, the upload-pack both run included) is less
		// at the mercy of a busy machine than wall time.
		b.ReportMetric(goGitCPU.Seconds()/gitCPU.Seconds(), "go-git-cpu/git-cpu")
	})
}
