package site

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"syscall"
	"testing"

	"github.com/kubewalk/kubewalk/internal/linkcheck"
	"github.com/kubewalk/kubewalk/internal/testsupport/testfs"

	"github.com/google/go-cmp/cmp"
)

// Faults in writing the site: a full disk and builds racing on one output
// directory. Each ends with an error and the previous site untouched, or
// with a complete site — never a half-written one, which a reader or a
// web server would serve as if it were whole.

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}

// TestBuildDiskFull builds a site onto a small file system that fills up
// part-way through the build: the error says "no space left on device",
// the previous site on the same file system is byte for byte what it was,
// and nothing else is left beside it. With space again, the build
// succeeds and the site link-checks.
func TestBuildDiskFull(t *testing.T) {
	in, opts := fixture(t)
	opts.Logf = nil
	ref := filepath.Join(t.TempDir(), "public")
	opts.Out = ref
	st, err := Build(context.Background(), in, opts)
	if err != nil {
		t.Fatal(err)
	}
	// Room for the site twice over (tmpfs counts whole pages), so the
	// previous site fits and the fill below decides where the next
	// build runs out.
	fsys := testfs.Small(t, 4*st.Bytes+64*int64(st.Pages)*4096)
	opts.Out = filepath.Join(fsys, "public")
	if _, err := Build(context.Background(), in, opts); err != nil {
		t.Fatalf("first build onto the small file system: %v", err)
	}
	before := readTree(t, opts.Out)

	for _, free := range []int64{0, 16 << 10, st.Bytes / 2} {
		t.Run(fmt.Sprintf("%d bytes free", free), func(t *testing.T) {
			filler := testfs.Fill(t, fsys, free)
			defer os.Remove(filler)
			_, err := Build(context.Background(), in, opts)
			if err == nil {
				t.Fatal("Build onto a full file system succeeded")
			}
			t.Logf("error: %v", err)
			if !errors.Is(err, syscall.ENOSPC) {
				t.Errorf("error does not wrap ENOSPC: %v", err)
			}
			if diff := cmp.Diff(before, readTree(t, opts.Out)); diff != "" {
				t.Errorf("a failed build changed the previous site (-before +after):\n%s", diff)
			}
			if got, want := dirNames(t, fsys), []string{"filler", "public"}; !cmp.Equal(got, want) {
				t.Errorf("left beside the site: %v, want %v", got, want)
			}
		})
	}

	if _, err := Build(context.Background(), in, opts); err != nil {
		t.Fatalf("with space again: %v", err)
	}
	if diff := cmp.Diff(readTree(t, ref), readTree(t, opts.Out)); diff != "" {
		t.Errorf("the site built with space again differs from one built elsewhere (-want +got):\n%s", diff)
	}
	for _, err := range linkcheck.Check(opts.Out, ScriptLinks) {
		t.Error(err)
	}
}

// TestConcurrentBuildsOneOut races builds of the same inputs into one
// output directory: every build succeeds, the result is one complete site,
// and nothing (no *.old, no temporary directory) is left beside it. Before
// the swap was locked, about 1 in 15 runs lost a build to "directory not
// empty" and left the old site behind.
func TestConcurrentBuildsOneOut(t *testing.T) {
	in, opts := fixture(t)
	opts.Logf = nil
	opts.Workers = 1
	parent := t.TempDir()
	opts.Out = filepath.Join(parent, "public")
	want, _ := buildFixture(t, nil)
	wantFiles := readTree(t, want)

	const builders, rounds = 4, 8
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		ok     int
		failed []string
	)
	for range builders {
		wg.Go(func() {
			for range rounds {
				_, err := Build(context.Background(), in, opts)
				mu.Lock()
				if err == nil {
					ok++
				} else {
					failed = append(failed, err.Error())
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	t.Logf("%d builds succeeded, %d failed", ok, len(failed))
	for _, f := range failed {
		t.Logf("failed: %s", f)
	}
	if len(failed) > 0 {
		t.Errorf("%d of %d concurrent builds failed", len(failed), builders*rounds)
	}
	if diff := cmp.Diff(wantFiles, readTree(t, opts.Out)); diff != "" {
		t.Errorf("the output is not one complete site (-want +got):\n%s", diff)
	}
	for _, err := range linkcheck.Check(opts.Out, ScriptLinks) {
		t.Error(err)
	}
	if got := dirNames(t, parent); !cmp.Equal(got, []string{"public"}) {
		t.Errorf("left beside the output: %v", got)
	}
}
