// Package browsertest starts headless Chromium for the browser tests of
// package site and of package site/releases, which read the pages they
// build as a reader's browser does.
package browsertest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Chromium finds a Chromium or Chrome binary: $KUBEWALK_CHROMIUM, else
// Debian's /usr/bin/chromium and the usual names on $PATH. Without one the
// browser tests skip — except under CI, where a missing browser fails them
// (.ci/run installs Debian's chromium package).
func Chromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("KUBEWALK_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("no Chromium found (install Debian's chromium package or set KUBEWALK_CHROMIUM); CI is set, so this is a failure")
	}
	t.Skip("no Chromium found (apt-get install chromium, or set KUBEWALK_CHROMIUM)")
	return ""
}

// New starts headless Chromium with the flags this closed network
// needs (without them Chromium waits on network services that never
// answer) and a fresh profile.
func New(t *testing.T, width, height int) context.Context {
	t.Helper()
	return NewFor(t, width, height, 90*time.Second)
}

// NewFor is New for a test that reads many pages: the browser is
// stopped after d, where New stops it after ninety seconds.
func NewFor(t *testing.T, width, height int, d time.Duration) context.Context {
	t.Helper()
	exe := Chromium(t)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("hide-scrollbars", true),
		// file:// pages may load the scripts beside them.
		chromedp.Flag("allow-file-access-from-files", true),
		chromedp.UserDataDir(t.TempDir()),
		// Chromium keeps its single-instance socket in a directory of
		// $TMPDIR, which it removes only on a clean exit; the test's own
		// goes with the test however the browser is stopped.
		chromedp.Env("TMPDIR=" + t.TempDir()),
		chromedp.WindowSize(width, height),
	}
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(acancel)
	bctx, bcancel := chromedp.NewContext(actx, chromedp.WithLogf(t.Logf))
	t.Cleanup(bcancel)
	if err := chromedp.Do(bctx); err != nil {
		t.Fatalf("start %s: %v", exe, err)
	}
	return bctx
}

// VoidEval evaluates a script for its effect.
func VoidEval(expr string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Evaluate[any](expr)(ctx, t)
		return err
	})
}

// OpenPage opens url in ctx's tab and waits for its body. It goes by
// about:blank, so a fragment on the page already open is a fresh load,
// not a same-document jump.
func OpenPage(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(url), chromedp.WaitReady(chromedp.CSS("body"))); err != nil {
		t.Fatal(err)
	}
}

// FileURL is the file:// URL of directory dir, with a trailing slash.
func FileURL(t *testing.T, dir string) string {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	return "file://" + filepath.ToSlash(abs) + "/"
}
