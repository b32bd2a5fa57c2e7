package source

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubewalk/kubewalk/internal/testsupport/testfs"

	"github.com/google/go-cmp/cmp"
)

// Faults in fetching (issue 8). Each ends with a clear one-line error and a
// cache holding no tree and no temporary directory, or with a correct tree.

// TestGitRemoteDropsConnection clones over smart HTTP from a git server on
// loopback that drops the connection part-way through each response, then
// from the same server when it is healthy.
func TestGitRemoteDropsConnection(t *testing.T) {
	srv := startGitServer(t)
	const tag = "v1.31.0"

	// A healthy clone first, to learn how long each response is.
	sizes := t.TempDir()
	if _, err := Fetch(context.Background(), Options{Tag: tag, Source: "git", Repo: srv.URL, CacheDir: sizes, Logger: testLogger(t)}); err != nil {
		t.Fatalf("healthy server: %v", err)
	}
	refs, pack := srv.size("refs"), srv.size("git-upload-pack")
	t.Logf("response sizes: refs %d bytes, upload-pack %d bytes", refs, pack)
	if refs == 0 || pack < 200 {
		t.Fatalf("unexpected response sizes: refs %d, upload-pack %d", refs, pack)
	}

	for _, tc := range []struct {
		name  string
		kind  string
		after int64
	}{
		{"refs advertisement, at once", "refs", 0},
		{"refs advertisement, mid-line", "refs", refs / 2},
		{"upload-pack, at once", "git-upload-pack", 0},
		{"upload-pack, in the negotiation", "git-upload-pack", 20},
		{"upload-pack, mid-pack", "git-upload-pack", pack / 2},
		{"upload-pack, 40 bytes short", "git-upload-pack", pack - 40},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cache := t.TempDir()
			srv.setCut(func(r *http.Request) int64 {
				if requestKind(r) == tc.kind {
					return tc.after
				}
				return -1
			})
			defer srv.setCut(nil)
			opts := Options{Tag: tag, Source: "git", Repo: srv.URL, CacheDir: cache, Logger: testLogger(t)}
			_, err := Fetch(context.Background(), opts)
			assertOneLine(t, err, srv.URL)
			assertNoTree(t, cache, "git", tag)

			// The server recovers: the same cache fetches, with nothing
			// cleaned up by hand.
			srv.setCut(nil)
			tree, err := Fetch(context.Background(), opts)
			if err != nil {
				t.Fatalf("healthy server: %v", err)
			}
			if tree.Commit != fx.commits[tag] {
				t.Errorf("commit %s, want %s", tree.Commit, fx.commits[tag])
			}
			if diff := cmp.Diff(fixtureFiles(tag), readTree(t, tree.Dir)); diff != "" {
				t.Errorf("tree (-want +got):\n%s", diff)
			}
			assertNoLeftovers(t, cache)
		})
	}
}

// TestProxyCorruptZip serves module zips that cannot be read, with
// checksum verification off (so the go command has nothing to compare
// against and must notice the damage itself). A damaged staging module
// must fail the fetch, not be taken for one the proxy does not serve.
func TestProxyCorruptZip(t *testing.T) {
	const tag = "v1.31.0"
	for _, tc := range []struct {
		name   string
		module string
		damage func(t *testing.T, zip string)
	}{
		{"not a zip", kubernetesModule, func(t *testing.T, zip string) {
			os.WriteFile(zip, []byte("<html>502 Bad Gateway</html>\n"), 0o644)
		}},
		{"truncated", kubernetesModule, func(t *testing.T, zip string) {
			b, _ := os.ReadFile(zip)
			os.WriteFile(zip, b[:len(b)/2], 0o644)
		}},
		{"empty", kubernetesModule, func(t *testing.T, zip string) {
			os.WriteFile(zip, nil, 0o644)
		}},
		{"bit flipped in the data", kubernetesModule, func(t *testing.T, zip string) {
			b, _ := os.ReadFile(zip)
			b[len(b)/3] ^= 0xff
			os.WriteFile(zip, b, 0o644)
		}},
		{"staging module truncated", "k8s.io/client-go", func(t *testing.T, zip string) {
			b, _ := os.ReadFile(zip)
			os.WriteFile(zip, b[:len(b)/2], 0o644)
		}},
		{"staging module not a zip", "k8s.io/api", func(t *testing.T, zip string) {
			os.WriteFile(zip, []byte("garbage"), 0o644)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			proxy := copyProxy(t)
			version := tag
			if tc.module != kubernetesModule {
				version = stagingVersion(tag)
			}
			zip := proxyFile(t, proxy, tc.module, version, ".zip")
			good, err := os.ReadFile(zip)
			if err != nil {
				t.Fatal(err)
			}
			tc.damage(t, zip)
			cache := t.TempDir()
			opts := proxyOptionsAt(t, cache, tag, proxy)
			tree, err := Fetch(context.Background(), opts)
			if err == nil {
				t.Fatalf("fetch from a proxy with a damaged %s zip succeeded: %+v", tc.module, tree)
			}
			assertOneLine(t, err, tc.module+"@"+version, "module proxy")
			assertNoTree(t, cache, "goproxy", tag)

			// The proxy is mended: the same cache and module cache fetch
			// fine (the go command kept no damaged copy).
			if err := os.WriteFile(zip, good, 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := Fetch(context.Background(), opts); err != nil {
				t.Fatalf("after the proxy was mended: %v", err)
			}
			assertNoLeftovers(t, cache)
		})
	}
}

// TestProxyChecksumMismatch serves, beside a checksum database on loopback
// that knows the fixture modules, module zips and go.mod files that are
// well formed but not the ones the database vouches for — what a
// compromised or confused proxy would serve. The go command refuses them;
// Fetch must say so in one line and leave no tree. The same database and
// the undamaged proxy fetch fine, so the refusal is the mismatch's doing.
func TestProxyChecksumMismatch(t *testing.T) {
	const tag = "v1.31.0"
	proxy := copyProxy(t)
	gosumdb := startSumDB(t, proxy)

	t.Run("control", func(t *testing.T) {
		cache := t.TempDir()
		tree, err := Fetch(context.Background(), proxyOptionsAt(t, cache, tag, proxy, sumDBEnv(t, gosumdb)...))
		if err != nil {
			t.Fatalf("the undamaged proxy with checksums on: %v", err)
		}
		if _, err := os.Stat(filepath.Join(tree.Dir, "pkg/controller/deployment/sync.go")); err != nil {
			t.Error(err)
		}
	})

	backdoor := func(name string, data []byte) []byte {
		if strings.HasSuffix(name, ".go") {
			return append(data, "\nfunc init() { /* not what upstream published */ }\n"...)
		}
		return data
	}
	for _, tc := range []struct {
		name   string
		module string
		damage func(t *testing.T, proxy, module, version string)
	}{
		{"kubernetes zip", kubernetesModule, func(t *testing.T, proxy, module, version string) {
			rewriteZip(t, proxyFile(t, proxy, module, version, ".zip"), backdoor)
		}},
		{"staging zip", "k8s.io/client-go", func(t *testing.T, proxy, module, version string) {
			rewriteZip(t, proxyFile(t, proxy, module, version, ".zip"), backdoor)
		}},
		{"kubernetes go.mod", kubernetesModule, func(t *testing.T, proxy, module, version string) {
			mod := proxyFile(t, proxy, module, version, ".mod")
			b, _ := os.ReadFile(mod)
			os.WriteFile(mod, append(b, "\nrequire example.com/evil v1.0.0\n"...), 0o644)
			// The zip's go.mod must match the .mod, or the go command
			// complains about that first.
			rewriteZip(t, proxyFile(t, proxy, module, version, ".zip"), func(name string, data []byte) []byte {
				if strings.HasSuffix(name, "@"+version+"/go.mod") {
					return append(data, "\nrequire example.com/evil v1.0.0\n"...)
				}
				return data
			})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			damaged := copyProxy(t)
			version := tag
			if tc.module != kubernetesModule {
				version = stagingVersion(tag)
			}
			tc.damage(t, damaged, tc.module, version)
			cache := t.TempDir()
			tree, err := Fetch(context.Background(), proxyOptionsAt(t, cache, tag, damaged, sumDBEnv(t, gosumdb)...))
			if err == nil {
				t.Fatalf("fetch of a module that does not match the checksum database succeeded: %+v", tree)
			}
			assertOneLine(t, err, tc.module, "checksum mismatch")
			assertNoTree(t, cache, "goproxy", tag)
		})
	}
}

// TestHalfWrittenCache starts from caches holding what a crash, a full
// disk or a careless hand can leave: Fetch recovers each into a complete
// tree, with no manual clean-up, and the cache holds nothing else
// afterwards.
func TestHalfWrittenCache(t *testing.T) {
	const tag = "v1.31.0"
	// A good tree of another tag, whose tree.json can be planted.
	other := t.TempDir()
	if _, err := Fetch(context.Background(), gitOptions(t, other, "v1.30.0")); err != nil {
		t.Fatal(err)
	}
	otherMeta, err := os.ReadFile(filepath.Join(other, "trees", "git", "v1.30.0", metaFileName))
	if err != nil {
		t.Fatal(err)
	}
	goodMeta, _ := json.Marshal(meta{Format: metaFormat, Tag: tag, Commit: fx.commits[tag], Backend: "git"})

	write := func(t *testing.T, path string, data string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, final string) // final is trees/git/<tag>
	}{
		{"temporary directory left behind", func(t *testing.T, final string) {
			write(t, final+".tmp-4242/kubernetes/go.mod", "module k8s.io/kube")
		}},
		{"several temporary directories, one read-only", func(t *testing.T, final string) {
			write(t, final+".tmp-1/kubernetes/README.md", "#")
			write(t, final+".tmp-2/tree.json", string(goodMeta))
			os.MkdirAll(final+".tmp-3/kubernetes/pkg", 0o555)
		}},
		{"tree without tree.json", func(t *testing.T, final string) {
			write(t, final+"/kubernetes/go.mod", "module k8s.io/kubernetes\n")
			write(t, final+"/go.work", "go 1.22\n")
		}},
		{"tree.json without a tree", func(t *testing.T, final string) {
			write(t, final+"/tree.json", string(goodMeta))
			write(t, final+"/go.work", "go 1.22\n")
		}},
		{"tree.json and tree without go.work", func(t *testing.T, final string) {
			write(t, final+"/tree.json", string(goodMeta))
			write(t, final+"/kubernetes/go.mod", "module k8s.io/kubernetes\n")
		}},
		{"tree.json truncated", func(t *testing.T, final string) {
			write(t, final+"/tree.json", string(goodMeta[:len(goodMeta)/2]))
			write(t, final+"/kubernetes/go.mod", "module k8s.io/kubernetes\n")
		}},
		{"tree.json empty", func(t *testing.T, final string) {
			write(t, final+"/tree.json", "")
		}},
		{"tree.json of another tag", func(t *testing.T, final string) {
			write(t, final+"/tree.json", string(otherMeta))
			write(t, final+"/kubernetes/go.mod", "module k8s.io/kubernetes\n")
		}},
		{"tree.json of another format", func(t *testing.T, final string) {
			write(t, final+"/tree.json", strings.Replace(string(goodMeta), `"format":1`, `"format":99`, 1))
		}},
		{"a file where the tree should be", func(t *testing.T, final string) {
			write(t, final, "not a directory")
		}},
		{"stale lock file", func(t *testing.T, final string) {
			write(t, final+".lock", "12345\n")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) { fetchRecovers(t, tag, tc.setup) })
	}
}

// fetchRecovers fetches tag with --source git and auto, each into a new
// cache that setup has damaged, and checks the tree is whole and nothing
// else is left.
func fetchRecovers(t *testing.T, tag string, setup func(t *testing.T, final string)) {
	t.Helper()
	for _, source := range []string{"git", "auto"} {
		cache := t.TempDir()
		final := filepath.Join(cache, "trees", "git", tag)
		setup(t, final)
		opts := gitOptions(t, cache, tag)
		opts.Source = source
		tree, err := Fetch(context.Background(), opts)
		if err != nil {
			t.Fatalf("--source %s: %v", source, err)
		}
		if tree.Backend != "git" || tree.Commit != fx.commits[tag] {
			t.Errorf("--source %s: got %+v", source, tree)
		}
		if diff := cmp.Diff(fixtureFiles(tag), readTree(t, tree.Dir)); diff != "" {
			t.Errorf("--source %s: tree (-want +got):\n%s", source, diff)
		}
		if _, err := os.Stat(filepath.Join(final, workFileName)); err != nil {
			t.Errorf("--source %s: %v", source, err)
		}
		assertNoLeftovers(t, cache)
	}
}

// TestDiskFull fetches into a cache on a small file system that is full,
// or nearly: the fetch fails with the operating system's "no space left
// on device" in one line, leaves no tree and no temporary directory, and
// succeeds once there is space again.
func TestDiskFull(t *testing.T) {
	const tag = "v1.31.0"
	for _, tc := range []struct {
		name string
		opts func(t *testing.T, cache string) Options
		free int64 // bytes left free
	}{
		{"git, full", func(t *testing.T, cache string) Options { return gitOptions(t, cache, tag) }, 0},
		{"git, 8 KiB free", func(t *testing.T, cache string) Options { return gitOptions(t, cache, tag) }, 8 << 10},
		{"goproxy, full", func(t *testing.T, cache string) Options { return proxyOptions(t, cache, tag) }, 0},
		{"goproxy, 8 KiB free", func(t *testing.T, cache string) Options { return proxyOptions(t, cache, tag) }, 8 << 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := testfs.Small(t, 1<<20)
			cache := filepath.Join(fsys, "cache")
			filler := testfs.Fill(t, fsys, tc.free)
			opts := tc.opts(t, cache)
			_, err := Fetch(context.Background(), opts)
			assertOneLine(t, err, "no space left on device", "--cache-dir")
			if !errors.Is(err, ErrCacheUnwritable) {
				t.Errorf("err does not wrap ErrCacheUnwritable")
			}
			backend := opts.Source
			assertNoTree(t, cache, backend, tag)

			if err := os.Remove(filler); err != nil {
				t.Fatal(err)
			}
			tree, err := Fetch(context.Background(), opts)
			if err != nil {
				t.Fatalf("with space again: %v", err)
			}
			files := readTree(t, tree.Dir)
			if files["pkg/controller/deployment/sync.go"] != fixtureFiles(tag)["pkg/controller/deployment/sync.go"] {
				t.Errorf("tree lacks sync.go or holds another one")
			}
			assertNoLeftovers(t, cache)
		})
	}
}
