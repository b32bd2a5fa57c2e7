package source

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/kubewalk/kubewalk/internal/gotoolchain"
	"golang.org/x/mod/modfile"
	"golang.org/x/sync/errgroup"
)

// downloaded is one object of `go mod download -json` output.
type downloaded struct {
	Path    string
	Version string
	Error   string
	Info    string
	GoMod   string
	Zip     string
}

// fetchGoproxy lays k8s.io/kubernetes@<tag> and its staging modules out in
// dir as the repository does, and returns the commit hash when the proxy's
// .info names one.
//
// The trees are unpacked from the module zips rather than copied from the
// module cache's extracted directories: unpacking is no slower than
// copying, and the files come out writable, so the cache can be cleaned
// with rm -rf.
func fetchGoproxy(ctx context.Context, opts Options, dir string) (string, error) {
	work := filepath.Dir(dir) // the fetch's temporary directory, no go.mod in it
	guard, err := guardProxies(ctx, opts, work)
	if err != nil {
		return "", err
	}
	defer guard.close()
	opts.Env = append(slices.Clip(opts.Env), guard.env()...)
	commit, err := downloadTree(ctx, opts, dir)
	if err != nil {
		if serr := guard.err("check GOPROXY and the network, or use --source git"); serr != nil {
			return "", serr
		}
	}
	return commit, err
}

// downloadTree is fetchGoproxy's work, with opts.Env as the go command
// is to run.
func downloadTree(ctx context.Context, opts Options, dir string) (string, error) {
	start := time.Now()
	k, jobs, err := downloadModules(ctx, opts, dir)
	if err != nil {
		return "", err
	}
	opts.Logger.Debug("downloaded modules", "count", len(jobs), "elapsed", time.Since(start).Round(time.Millisecond))
	if err := unpack(ctx, opts, jobs); err != nil {
		return "", err
	}
	return infoCommit(k.Info), nil
}

// unzipJob is a module zip to unpack: its files under prefix go to dest.
type unzipJob struct{ zip, prefix, dest string }

// downloadModules downloads k8s.io/kubernetes at the tag and the staging
// modules its go.mod names, and returns the first and where each zip
// goes in dir. A staging module the proxy does not serve is left out,
// with a warning.
func downloadModules(ctx context.Context, opts Options, dir string) (downloaded, []unzipJob, error) {
	work := filepath.Dir(dir)
	fmt.Fprintf(opts.Progress, "downloading k8s.io/kubernetes@%s from the module proxy\n", opts.Tag)
	mods, err := goModDownload(ctx, opts, work, kubernetesModule+"@"+opts.Tag)
	if err != nil {
		return downloaded{}, nil, err
	}
	k := mods[0]
	if k.Error != "" {
		return downloaded{}, nil, proxyError(ctx, opts, work, k.Error)
	}
	data, err := os.ReadFile(k.GoMod)
	if err != nil {
		return downloaded{}, nil, err
	}
	f, err := modfile.Parse(k.GoMod, data, nil)
	if err != nil {
		return downloaded{}, nil, fmt.Errorf("k8s.io/kubernetes@%s go.mod: %w", opts.Tag, err)
	}
	names := stagingNames(f)
	sv := stagingVersion(opts.Tag)
	var args []string
	for _, n := range names {
		args = append(args, "k8s.io/"+n+"@"+sv)
	}
	fmt.Fprintf(opts.Progress, "downloading %d staging modules at %s\n", len(args), sv)
	staged, err := goModDownload(ctx, opts, work, args...)
	if err != nil {
		return downloaded{}, nil, err
	}
	jobs := []unzipJob{{k.Zip, k.Path + "@" + k.Version + "/", dir}}
	var missing []string
	for i, m := range staged {
		switch {
		case m.Error == "":
			jobs = append(jobs, unzipJob{m.Zip, m.Path + "@" + m.Version + "/", filepath.Join(dir, filepath.FromSlash(stagingDir(names[i])))})
		case notServed(m.Error):
			missing = append(missing, m.Path)
		default:
			return downloaded{}, nil, fmt.Errorf("module proxy: %w: %s: check GOPROXY and the network", ErrUnreachable, moduleLine(m.Path+"@"+m.Version, m.Error))
		}
	}
	if len(missing) > 0 {
		opts.Logger.Warn("the module proxy does not serve some staging modules; the tree lacks their directories", "tag", opts.Tag, "missing", strings.Join(missing, " "))
	}
	return k, jobs, nil
}

// unpack writes the files of every zip of jobs, in parallel.
func unpack(ctx context.Context, opts Options, jobs []unzipJob) error {
	var files []*zip.File
	var prefixes, dests []string
	for _, j := range jobs {
		zr, err := zip.OpenReader(j.zip)
		if err != nil {
			return err
		}
		defer zr.Close()
		for _, zf := range zr.File {
			files = append(files, zf)
			prefixes = append(prefixes, j.prefix)
			dests = append(dests, j.dest)
		}
	}
	start := time.Now()
	fmt.Fprintf(opts.Progress, "unpacking %d files from %d modules\n", len(files), len(jobs))
	var n atomic.Int64
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(runtime.GOMAXPROCS(0) * 2)
	for i, zf := range files {
		g.Go(func() error {
			if err := gctx.Err(); err != nil {
				return err
			}
			if err := unzipFile(zf, prefixes[i], dests[i]); err != nil {
				return err
			}
			if c := n.Add(1); c%2000 == 0 {
				fmt.Fprintf(opts.Progress, "unpacked %d/%d files\n", c, len(files))
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return fmt.Errorf("unpack: %w", err)
	}
	opts.Logger.Debug("unpacked modules", "files", len(files), "elapsed", time.Since(start).Round(time.Millisecond))
	return nil
}

// unzipFile writes one module zip entry under dest, with its
// path@version/ prefix stripped.
func unzipFile(zf *zip.File, prefix, dest string) error {
	rel, ok := strings.CutPrefix(zf.Name, prefix)
	if !ok || !filepath.IsLocal(rel) || strings.HasSuffix(zf.Name, "/") {
		return fmt.Errorf("unexpected module zip entry %q", zf.Name)
	}
	name := filepath.Join(dest, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	r, err := zf.Open()
	if err != nil {
		return err
	}
	defer r.Close()
	w, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(w, r); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}

// goModDownload runs `go mod download -json` for modules and returns one
// result per argument, in order. Per-module failures are in Error; the
// error result is for a go command that could not run at all.
func goModDownload(ctx context.Context, opts Options, dir string, modules ...string) ([]downloaded, error) {
	out, stderr, runErr := runGo(ctx, opts, dir, append([]string{"mod", "download", "-json"}, modules...)...)
	byPath := map[string]downloaded{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var d downloaded
		if err := dec.Decode(&d); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("go mod download: %v: %s", err, firstLine(stderr))
		}
		byPath[d.Path+"@"+d.Version] = d
	}
	res := make([]downloaded, len(modules))
	for i, m := range modules {
		d, ok := byPath[m]
		if !ok {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			msg := firstLine(stderr)
			if msg == "" && runErr != nil {
				msg = runErr.Error()
			}
			return nil, fmt.Errorf("go mod download %s: %s", m, msg)
		}
		res[i] = d
	}
	return res, nil
}

// runGo runs the go command in dir, outside any module or workspace.
func runGo(ctx context.Context, opts Options, dir string, args ...string) (stdout, stderr []byte, err error) {
	cmd := exec.CommandContext(ctx, opts.GoCommand, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GO111MODULE=on")
	cmd.Env = append(cmd.Env, opts.Env...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	opts.Logger.Debug("run", "cmd", opts.GoCommand+" "+strings.Join(args, " "))
	err = cmd.Run()
	if errors.Is(err, exec.ErrNotFound) {
		return nil, nil, fmt.Errorf("the go command %q is not installed or not on PATH: %w", opts.GoCommand, err)
	}
	return o.Bytes(), e.Bytes(), err
}

// notServedRE matches the go command's messages for a module version the
// proxy does not have: 404/410 from proxy.golang.org, 403 "not available"
// from mirrors, and the file:// proxy's missing file.
var notServedRE = regexp.MustCompile(`\b(403|404|410)\b|not found|not available|no such file|unknown revision|invalid version|no matching versions`)

func notServed(msg string) bool { return notServedRE.MatchString(msg) }

// proxyError explains why k8s.io/kubernetes@<tag> could not be downloaded:
// the tag needs a newer Go than the go command may use, the proxy does
// not have the tag (name the nearest it has), or it cannot be reached.
func proxyError(ctx context.Context, opts Options, dir, msg string) error {
	if err := gotoolchain.Refused(kubernetesModule+"@"+opts.Tag, msg); err != nil {
		return err
	}
	if !notServed(msg) {
		return fmt.Errorf("module proxy: %w: %s: check GOPROXY and the network, or use --source git", ErrUnreachable, moduleLine(kubernetesModule+"@"+opts.Tag, msg))
	}
	out, stderr, err := runGo(ctx, opts, dir, "list", "-m", "-json", "-versions", kubernetesModule)
	if err != nil {
		return fmt.Errorf("module proxy: %w: k8s.io/kubernetes@%s (listing versions failed: %s)", ErrTagNotFound, opts.Tag, firstLine(stderr))
	}
	var m struct{ Versions []string }
	if err := json.Unmarshal(out, &m); err != nil {
		return fmt.Errorf("module proxy: %w: k8s.io/kubernetes@%s", ErrTagNotFound, opts.Tag)
	}
	return tagNotFound(opts.Tag, "module proxy", m.Versions, "use --source git for a tag the proxy lacks")
}

// infoCommit returns the commit hash in a module's .info file
// (Origin.Hash), or "" when the proxy gave none.
func infoCommit(info string) string {
	data, err := os.ReadFile(info)
	if err != nil {
		return ""
	}
	var v struct{ Origin struct{ Hash string } }
	if json.Unmarshal(data, &v) != nil {
		return ""
	}
	return v.Origin.Hash
}

// moduleLine is the first line of the go command's message about module
// mod (path@version), naming mod: some messages do ("verifying
// k8s.io/kubernetes@v1.31.0: checksum mismatch"), others do not ("zip: not
// a valid zip file" for a damaged zip), and the reader needs to know which
// of some thirty modules is at fault.
func moduleLine(mod, msg string) string {
	line := firstLine(msg)
	if strings.Contains(line, mod) {
		return line
	}
	return mod + ": " + line
}

func firstLine[S string | []byte](s S) string {
	line, _, _ := strings.Cut(strings.TrimSpace(string(s)), "\n")
	return line
}
