// Package pipeline glues kubewalk's stages together for the command line, up
// to the site: fetch a tree (source), analyse it (analyzer, through its
// facts cache), find its recordings (record), and load and resolve
// walkthroughs (walkthrough). Rendering a site is sitebuild's, so that the
// commands that build none (explain, record, export, check, list, trace,
// diff) need nothing of the site: this package does not import it.
// It holds no logic of its own beyond choosing inputs: which walkthrough
// directories, which analyzer roots, which cache directories.
package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer"
	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/record"
	"github.com/kubewalk/kubewalk/source"
	"github.com/kubewalk/kubewalk/walkthrough"
	"github.com/kubewalk/kubewalk/walkthroughs"
)

// WalkSet is one directory of walkthrough Markdown files.
type WalkSet struct {
	// Name labels the set in diagnostics: "builtin" or the directory given.
	Name string
	FS   fs.FS
	Dir  string // directory inside FS
}

// Sets returns the walkthrough sets to use: the built-in walkthroughs unless
// noBuiltin, then the user's directory when one is given.
func Sets(userDir string, noBuiltin bool) ([]WalkSet, error) {
	var sets []WalkSet
	if !noBuiltin {
		sets = append(sets, WalkSet{Name: "builtin", FS: walkthroughs.FS, Dir: "."})
	}
	if userDir != "" {
		st, err := os.Stat(userDir)
		if err != nil {
			return nil, fmt.Errorf("--walkthroughs: %w", err)
		}
		if !st.IsDir() {
			return nil, fmt.Errorf("--walkthroughs %s: not a directory", userDir)
		}
		// An os.Root: a file cannot be swapped for a link out of the
		// directory between walkthrough's checks and its open.
		fsys, err := walkthrough.DirFS(userDir)
		if err != nil {
			return nil, fmt.Errorf("--walkthroughs: %w", err)
		}
		sets = append(sets, WalkSet{Name: userDir, FS: fsys, Dir: "."})
	}
	if len(sets) == 0 {
		return nil, fmt.Errorf("no walkthroughs: --no-builtin needs --walkthroughs DIR")
	}
	return sets, nil
}

// Release is one release, fetched and analysed.
type Release struct {
	Tree   *source.Tree
	Result *analyzer.Result
	// Cached is true when the facts came from the cache (no packages loaded).
	Cached bool
	// Recordings are the release's recorded runs, one per scenario that
	// has one (record.Find), in the order of record.Scenarios.
	Recordings []*record.Recording
}

// Open fetches the tree for opts.Tag and analyses it, with the analyzer's
// default roots plus every package the walkthrough sets reference, so that
// each reference can be resolved.
func Open(ctx context.Context, opts source.Options, sets []WalkSet, logf func(string, ...any)) (*Release, error) {
	tree, err := Fetch(ctx, opts)
	if err != nil {
		return nil, err
	}
	return OpenTree(ctx, tree, opts, sets, logf)
}

// Fetch is source.Fetch, said as a phase of the command on opts.Logger.
func Fetch(ctx context.Context, opts source.Options) (*source.Tree, error) {
	fetched := Phase(logger(opts), "fetching", "tag", opts.Tag)
	tree, err := source.Fetch(ctx, opts)
	if err != nil {
		fetched("fetch failed", "tag", opts.Tag)
		return nil, err
	}
	fetched("fetched", "tag", tree.Tag, "source", tree.Backend)
	return tree, nil
}

// logger is opts.Logger, or one that discards.
func logger(opts source.Options) *slog.Logger {
	if opts.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return opts.Logger
}

// OpenTree is Open of a tree already fetched with opts (Fetch): a command
// of several releases fetches them all at once first.
func OpenTree(ctx context.Context, tree *source.Tree, opts source.Options, sets []WalkSet, logf func(string, ...any)) (*Release, error) {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	log := logger(opts)
	roots, err := Roots(sets)
	if err != nil {
		return nil, err
	}
	cfg := analyzer.Config{
		Dir:    tree.Dir,
		Env:    tree.Env,
		Roots:  roots,
		Tag:    tree.Tag,
		Commit: tree.Commit,
		Logf:   logf,
	}
	// Said only once it takes a while: facts from the cache come in a
	// second, an analysis takes minutes.
	analysed := Phase(log, "analysing (no cached facts)", "tag", tree.Tag, "roots", len(roots))
	res, hit, err := analyzer.AnalyzeCached(ctx, cfg, filepath.Join(opts.CacheDir, "facts"))
	// A cache file not used and a cache not written cost time only: said
	// once (a file not written says too why none was read), and the
	// analysis goes on.
	switch {
	case errors.Is(err, analyzer.ErrCacheUnwritable):
		log.Warn("facts not cached: the next run analyses the release again; give --cache-dir a writable directory", "tag", tree.Tag, "err", err)
	case errors.Is(err, analyzer.ErrCacheIgnored):
		log.Warn("a facts cache file that is damaged or another release's or roots' was not read: analysed again and replaced", "tag", tree.Tag, "err", err)
	}
	if res != nil {
		err = nil
	}
	if err != nil {
		analysed("analysis failed", "tag", tree.Tag)
		return nil, fmt.Errorf("analyse %s: %w", tree.Tag, err)
	}
	if hit {
		analysed("facts from cache", "tag", tree.Tag)
	} else {
		analysed("analysed", "tag", tree.Tag, "roots", len(roots))
	}
	dropTestSupport(res.Facts())
	if bad := res.Facts().Incomplete; len(bad) > 0 {
		// A cache hit has the packages, not the errors: those only an
		// analysis prints.
		how := "-v lists the errors"
		if hit {
			how = "the facts are cached: -v lists the errors of an analysis, which removing " + filepath.Join(opts.CacheDir, "facts") + " makes the next run do"
		}
		log.Warn("some packages did not load; facts in them may be missing ("+how+")", "tag", tree.Tag, "packages", len(bad), "first", bad[0])
	}
	var recs []*record.Recording
	for _, sc := range record.ScenarioNames() {
		rec, err := record.Find(opts.CacheDir, walkthroughs.Recordings, tree.Tag, sc)
		if err != nil {
			// A damaged recording costs its pages, not the site; a
			// damaged cached one gives way to the kept one (rec).
			log.Warn("recording not read", "tag", tree.Tag, "scenario", sc, "err", err, "kept one used", rec != nil)
		}
		if rec != nil {
			recs = append(recs, rec)
		}
	}
	return &Release{Tree: tree, Result: res, Cached: hit, Recordings: recs}, nil
}

// Roots returns the analyzer's default roots plus the import path of every
// package the walkthrough sets reference, sorted and deduplicated.
func Roots(sets []WalkSet) ([]string, error) {
	seen := map[string]bool{}
	var roots []string
	add := func(r string) {
		if r != "" && !seen[r] {
			seen[r] = true
			roots = append(roots, r)
		}
	}
	for _, r := range analyzer.DefaultRoots {
		add(r)
	}
	for _, s := range sets {
		uses, err := walkthrough.Refs(s.FS, s.Dir)
		if err != nil {
			return nil, err
		}
		for _, u := range uses {
			for _, alt := range u.Ref.Alternates {
				// A path without a slash is the standard library's,
				// whose symbols the analyzer does not index: never a
				// root.
				if pkg, _, ok := fact.SplitSymbol(alt); ok && strings.Contains(pkg, "/") {
					add(pkg)
				}
			}
		}
	}
	sort.Strings(roots[len(analyzer.DefaultRoots):])
	return roots, nil
}

// Read returns the file at path, slash-separated and relative to the
// release's tree.
func (rel *Release) Read(path string) ([]byte, error) {
	return os.ReadFile(filepath.Join(rel.Tree.Dir, filepath.FromSlash(path)))
}
