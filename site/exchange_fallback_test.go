package site

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kubewalk/kubewalk/internal/disk/publish"
)

// Where the file system cannot exchange two directories in one step
// (Linux before 3.15, some network file systems, systems other than Linux
// and macOS), the swap is two renames: the old site aside, then the new
// one in. This kernel always has RENAME_EXCHANGE, so these tests replace
// publish.Exchange with one that reports no support.

// noExchangeEnv, set in the environment of a helper build (output_test.go's
// TestHelperBuild), makes it swap by renames.
const noExchangeEnv = "KUBEWALK_SITE_NO_EXCHANGE"

func init() {
	if os.Getenv(noExchangeEnv) != "" {
		publish.Exchange = unsupported
	}
}

// unsupported is an exchange where the file system has none.
func unsupported(a, b string) error {
	return &os.LinkError{Op: "exchange", Old: a, New: b, Err: errors.ErrUnsupported}
}

// noExchange makes the swap fall back to renames until the test ends, and
// returns how many times the exchange was tried.
func noExchange(t testing.TB) *int {
	t.Helper()
	calls := new(int)
	real := publish.Exchange
	publish.Exchange = func(a, b string) error {
		*calls++
		return unsupported(a, b)
	}
	t.Cleanup(func() { publish.Exchange = real })
	return calls
}

// builtOnce builds the fixture into a new directory's "public" and
// returns the inputs and what was built.
func builtOnce(t *testing.T) (Input, Options, map[string]string) {
	t.Helper()
	in, opts := fixture(t)
	opts.Logf = nil
	opts.Out = filepath.Join(t.TempDir(), "public")
	if _, err := Build(context.Background(), in, opts); err != nil {
		t.Fatal(err)
	}
	return in, opts, readTree(t, opts.Out)
}

// TestFallbackSwap: a build over a site, by two renames, publishes the
// whole new site and leaves nothing beside it.
func TestFallbackSwap(t *testing.T) {
	calls := noExchange(t)
	in, opts, first := builtOnce(t)
	parent := filepath.Dir(opts.Out)
	if _, err := Build(context.Background(), in, opts); err != nil {
		t.Fatal(err)
	}
	if *calls != 1 {
		t.Fatalf("exchange tried %d times, want once (the second build)", *calls)
	}
	if diff := cmp.Diff(first, readTree(t, opts.Out)); diff != "" {
		t.Errorf("the site swapped in by renames differs (-first +second):\n%s", diff)
	}
	if names := dirNames(t, parent); !slices.Equal(names, []string{"public"}) {
		t.Errorf("beside the site: %v", names)
	}
}

// TestFallbackSurvivesKill kills a build that swaps by renames at each of
// them. Before the first and after the second, --out is a whole site.
// Between them --out is missing, which no other build can see (the swap
// happens in the builds' turn) and the whole old site is aside; the next
// build's sweep puts it back before anything else, and removes the rest.
func TestFallbackSurvivesKill(t *testing.T) {
	if testing.Short() {
		t.Skip("builds in helper processes")
	}
	in, opts, site := builtOnce(t)
	parent := filepath.Dir(opts.Out)
	for _, tc := range []struct {
		inject  string
		between bool // killed with the old site aside and no --out
	}{
		{"rename,renameat,renameat2:delay_enter=60s:when=1", false},
		{"rename,renameat,renameat2:delay_exit=60s:when=1", true},
		{"rename,renameat,renameat2:delay_enter=60s:when=2", true},
		{"rename,renameat,renameat2:delay_exit=60s:when=2", false},
	} {
		t.Run(tc.inject, func(t *testing.T) {
			t.Setenv(noExchangeEnv, "1") // for the helper build only: init ran here already
			for attempt := 1; ; attempt++ {
				killInRename(t, underStrace(t, opts.Out, "-o", "/dev/null", "-e", "inject="+tc.inject))
				_, err := os.Lstat(opts.Out)
				if err != nil {
					break
				}
				if diff := cmp.Diff(site, readTree(t, opts.Out)); diff != "" {
					t.Fatalf("--out is not a whole site (-want +got):\n%s", diff)
				}
				if !tc.between {
					break
				}
				// Killed at strace's stop on entering the first rename,
				// which it traces but does not delay: again.
				if attempt == 5 {
					t.Fatalf("--out is there after %d kills meant between the renames", attempt)
				}
			}
			if _, err := os.Lstat(opts.Out); err != nil {
				asides, _ := filepath.Glob(filepath.Join(parent, ".public.tmp-*.old"))
				if !tc.between || len(asides) != 1 {
					t.Fatalf("--out is gone (%v), old sites aside: %v", err, asides)
				}
				if diff := cmp.Diff(site, readTree(t, asides[0])); diff != "" {
					t.Errorf("the old site aside is not whole (-want +got):\n%s", diff)
				}
				// The next run's first step, alone: the old site back.
				if err := publish.Sweep(opts.Out); err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(site, readTree(t, opts.Out)); diff != "" {
					t.Errorf("--out restored by the sweep (-want +got):\n%s", diff)
				}
			}
			noExchange(t)
			if _, err := Build(context.Background(), in, opts); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(site, readTree(t, opts.Out)); diff != "" {
				t.Errorf("--out after the next build (-want +got):\n%s", diff)
			}
			if names := dirNames(t, parent); !slices.Equal(names, []string{"public"}) {
				t.Errorf("left beside the site after the next build: %v", names)
			}
		})
	}
}
