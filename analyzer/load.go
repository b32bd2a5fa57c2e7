package analyzer

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/gotoolchain"

	"golang.org/x/tools/go/packages"
)

// This file is the loader. It does not use packages.Load: see the package
// doc ("Loading") for why and for the figures. In short, it runs one
// `go list -deps -json` and, while that command is still streaming its
// output, parses and type-checks every package from source on a small
// worker pool, with function bodies ignored outside the root packages.

// listPackage is the part of `go list -json` output the loader reads.
type listPackage struct {
	ImportPath string
	Name       string
	Dir        string
	GoFiles    []string
	Imports    []string
	ImportMap  map[string]string
	Module     *struct {
		Path      string
		Dir       string
		GoVersion string
		Main      bool
	}
	Error *struct {
		Pos string
		Err string
	}
	DepOnly  bool
	Standard bool
}

// loadStats counts what a load did, for Logf and the benchmarks.
type loadStats struct {
	Packages, RootPackages, Files int
	// TypeErrors counts errors (list, parse and type) that were reported;
	// Filtered counts those of the expected kinds that were dropped.
	TypeErrors, Filtered int
	// MissingRoots counts root packages that do not exist (logged, not
	// counted as errors).
	MissingRoots int
	List, Total  time.Duration
}

// lpkg is a package being loaded.
type lpkg struct {
	list    listPackage
	pkg     *packages.Package
	root    bool
	inTree  bool
	imports []*lpkg // resolved imports, for the scheduler
	preds   []*lpkg // packages importing this one
	// waiting counts what must finish before type-checking: one for the
	// package's own parse plus one per unchecked import. Guarded by the
	// scheduler's mutex.
	waiting int
	syms    []fact.Symbol
}

// Load loads the packages matched by cfg.Roots (DefaultRoots when empty)
// and every package they import: root packages with full syntax, comments
// and types.Info; dependencies with types only (their syntax is parsed
// without function bodies and dropped once type-checked). Errors of the
// go command are returned; errors in packages are recorded in each
// package's Errors, reported through cfg.Logf and counted.
//
// Load is exported for the discovery passes' tests; Analyze is the entry
// point for everyone else.
func Load(ctx context.Context, cfg Config) (*Program, error) {
	prog, _, _, err := load(ctx, cfg)
	return prog, err
}

// load returns the program, the symbols of every in-tree package (sorted
// by name) and counters.
func load(ctx context.Context, cfg Config) (*Program, []fact.Symbol, loadStats, error) {
	var st loadStats
	t0 := time.Now()
	logf := cfg.logf()
	dir, err := filepath.Abs(cfg.Dir)
	if err != nil {
		return nil, nil, st, err
	}
	dir = filepath.Clean(dir)
	if err := checkToolchain(ctx, dir, cfg.Env); err != nil {
		return nil, nil, st, err
	}
	roots := cfg.Roots
	if len(roots) == 0 {
		roots = DefaultRoots
	}

	prog := &Program{Fset: token.NewFileSet(), Dir: dir, Packages: map[string]*packages.Package{}}
	ld := &loader{
		ctx:   ctx,
		prog:  prog,
		logf:  logf,
		sizes: types.SizesFor("gc", runtime.GOARCH),
		pkgs:  map[string]*lpkg{},

		noBlank: os.Getenv("KUBEWALK_ANALYZER_NOBLANK") != "",
		noSpec:  os.Getenv("KUBEWALK_ANALYZER_NOSPEC") != "",
		goIndex: os.Getenv("KUBEWALK_ANALYZER_GOINDEX") != "",
	}
	ld.cond = sync.NewCond(&ld.mu)
	listed, listErr := ld.listAndCheck(dir, roots, cfg.Env)
	st.List = listed.Sub(t0)

	if err := ctx.Err(); err != nil {
		return nil, nil, st, err
	}
	if listErr != nil {
		if err := gotoolchain.Refused("the release's go.mod", listErr.Error()); err != nil {
			return nil, nil, st, err
		}
		return nil, nil, st, fmt.Errorf("listing packages in %s: %w", dir, listErr)
	}
	if err := ld.unparsedError(); err != nil {
		return nil, nil, st, err
	}
	syms, missing := ld.collect(&st)
	if len(prog.Roots) == 0 {
		return nil, nil, st, fmt.Errorf("go list in %s: no package of %s loaded: %s", dir, strings.Join(roots, " "), strings.Join(missing, "; "))
	}
	st.RootPackages = len(prog.Roots)
	st.TypeErrors = int(ld.nerrors.Load())
	st.Filtered = int(ld.nfiltered.Load())
	logf("analyzer: %d dependency files queued to parse ahead, %d of them used", ld.nspecDep, ld.nspecUsed.Load())
	if n := ld.nblankFailed.Load(); n > 0 {
		logf("analyzer: %d dependency files parsed twice (bodies not blanked)", n)
	}
	st.Total = time.Since(t0)
	logf("analyzer: loaded %d packages (%d roots, %d files) in %v (go list %v); %d errors, %d expected errors filtered",
		st.Packages, st.RootPackages, st.Files, st.Total.Round(time.Millisecond), st.List.Round(time.Millisecond), st.TypeErrors, st.Filtered)
	return prog, syms, st, nil
}

// listAndCheck lists the package graph of roots and has the workers parse
// and type-check it as it comes, returning when they are done. listed is
// when the listing ended.
//
// The package graph comes from go/packages in metadata mode (one `go list
// -deps` through its driver, with -pgo=off as go/packages always passes,
// and the go command's module index off: see withoutGoIndex).
// CGO_ENABLED=0: the loader type-checks GoFiles only (it never runs cgo),
// which is exactly the file set of a CGO_ENABLED=0 build — how Kubernetes
// builds its release binaries. While it lists, the workers already parse
// the root directories' files (speculate).
func (ld *loader) listAndCheck(dir string, roots, env []string) (listed time.Time, err error) {
	if !ld.noSpec {
		ld.speculate(dir, roots)
	}
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ld.work()
		}()
	}
	goEnv := append(append(os.Environ(), env...), "CGO_ENABLED=0")
	if !ld.goIndex {
		goEnv = withoutGoIndex(goEnv)
	}
	pkgs, err := packages.Load(&packages.Config{
		Context: ld.ctx,
		Mode:    packages.NeedName | packages.NeedFiles | packages.NeedImports | packages.NeedDeps | packages.NeedModule,
		Dir:     dir,
		Env:     goEnv,
	}, roots...)
	if err == nil {
		// Visit is a post-order walk: every package after its imports,
		// as the scheduler needs them.
		rootSet := map[string]bool{}
		for _, p := range pkgs {
			rootSet[p.ID] = true
		}
		packages.Visit(pkgs, nil, func(p *packages.Package) {
			ld.add(listPackageOf(p, rootSet[p.ID]))
		})
	}
	listed = time.Now()
	ld.mu.Lock()
	ld.listed = true
	ld.cond.Broadcast()
	ld.mu.Unlock()
	wg.Wait()
	return listed, err
}

// withoutGoIndex turns off the go command's module index for the
// listing (GODEBUG=goindex=0, added to any GODEBUG already in env; the
// last setting of a variable wins). The index is an entry per module
// directory in GOCACHE, built by reading the headers of every file of
// every package of the module, imported or not, and of every package
// directory of the tree; it pays only when it is already there. A tree
// analysed for the first time never has it (the tree's own directories
// are indexed per tree), and without it `go list -deps` of DefaultRoots
// took 1.2 s instead of 2.5 s with an empty GOCACHE, where a warm index
// saves 0.5 s (0.7 s against 1.2 s): see bench/README.md. A go command
// that does not know the setting ignores it.
func withoutGoIndex(env []string) []string {
	debug := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GODEBUG="); ok {
			debug = v
		}
	}
	if debug != "" {
		debug += ","
	}
	return append(env, "GODEBUG="+debug+"goindex=0")
}

// collect puts the checked packages into the program, roots apart, and
// returns every package's symbols, sorted, and the errors of the roots
// that do not exist.
//
// A root that does not exist is not fatal: the pipeline adds every
// package a walkthrough references, and alternates name packages that
// exist at some tags only. It is logged, and dropped.
func (ld *loader) collect(st *loadStats) (syms []fact.Symbol, missing []string) {
	prog := ld.prog
	for _, p := range ld.order {
		if p.root && len(p.list.GoFiles) == 0 && p.list.Error != nil {
			missing = append(missing, p.list.Error.Err)
			ld.logf("analyzer: root %s not loaded: %s", p.list.ImportPath, p.list.Error.Err)
			st.MissingRoots++
			continue
		}
		prog.Packages[p.list.ImportPath] = p.pkg
		st.Packages++
		st.Files += len(p.list.GoFiles)
		if p.root {
			prog.Roots = append(prog.Roots, p.pkg)
		}
		syms = append(syms, p.syms...)
	}
	sort.Slice(prog.Roots, func(i, j int) bool { return prog.Roots[i].PkgPath < prog.Roots[j].PkgPath })
	sortSymbols(syms)
	prog.symbols = syms
	return syms, missing
}

type loader struct {
	ctx   context.Context
	prog  *Program
	logf  func(string, ...any)
	sizes types.Sizes
	// noBlank and noSpec turn blankBodies and speculate off, and goIndex
	// leaves the go command's module index on (see withoutGoIndex), for
	// measurements (KUBEWALK_ANALYZER_NOBLANK, KUBEWALK_ANALYZER_NOSPEC,
	// KUBEWALK_ANALYZER_GOINDEX).
	noBlank, noSpec, goIndex bool

	mu     sync.Mutex
	cond   *sync.Cond
	pkgs   map[string]*lpkg
	order  []*lpkg // in listing order
	parseQ []*lpkg
	checkQ []*lpkg
	// specQ and spec: files of the roots' directories and of the in-tree
	// directories they import, parsed while go list runs (see
	// speculate). spec is written under mu until listed is set.
	specQ []*specFile
	spec  map[string]*specFile
	// specDirs are the directories queued for speculation; dir and
	// modPath map an import path to its directory (specImports).
	specDirs map[string]bool
	dir      string
	modPath  string
	// listed is set when the listing is complete; pending counts packages
	// not yet type-checked.
	listed  bool
	pending int

	nerrors, nfiltered atomic.Int64
	// nblankFailed counts files whose blanked source did not parse.
	nblankFailed atomic.Int64
	// nspecDep counts the dependencies' files queued to be parsed ahead
	// (under mu), nspecUsed those a package then took.
	nspecDep  int
	nspecUsed atomic.Int64
	// unparsed lists the files that could not be read or parsed (under
	// mu): Load fails with the first.
	unparsed []packages.Error
}

// add registers a listed package and queues its parse.
func (ld *loader) add(lp listPackage) {
	p := &lpkg{list: lp, root: !lp.DepOnly}
	p.inTree = !lp.Standard && ld.inTree(lp.Dir)
	p.pkg = &packages.Package{
		ID:      lp.ImportPath,
		Name:    lp.Name,
		PkgPath: lp.ImportPath,
		Dir:     lp.Dir,
		Fset:    ld.prog.Fset,
		Imports: map[string]*packages.Package{},
	}
	for _, f := range lp.GoFiles {
		p.pkg.GoFiles = append(p.pkg.GoFiles, filepath.Join(lp.Dir, f))
	}
	p.pkg.CompiledGoFiles = p.pkg.GoFiles
	if m := lp.Module; m != nil {
		p.pkg.Module = &packages.Module{Path: m.Path, Dir: m.Dir, GoVersion: m.GoVersion, Main: m.Main}
	}
	if lp.Error != nil && (lp.DepOnly || len(lp.GoFiles) > 0) { // missing roots: see load
		ld.report(p, packages.Error{Pos: lp.Error.Pos, Msg: lp.Error.Err, Kind: packages.ListError})
	}

	ld.mu.Lock()
	defer ld.mu.Unlock()
	if _, dup := ld.pkgs[lp.ImportPath]; dup {
		return
	}
	ld.pkgs[lp.ImportPath] = p
	ld.order = append(ld.order, p)
	ld.pending++
	p.waiting = 1 // the parse
	for _, path := range lp.Imports {
		if path == "C" || path == "unsafe" {
			continue
		}
		dep := ld.pkgs[path]
		if dep == nil {
			// Not listed (yet): the importer reports it when checking.
			continue
		}
		p.imports = append(p.imports, dep)
		p.pkg.Imports[importKey(lp, path)] = dep.pkg
		if dep.waiting >= 0 { // not yet checked
			dep.preds = append(dep.preds, p)
			p.waiting++
		}
	}
	ld.parseQ = append(ld.parseQ, p)
	ld.cond.Signal()
}

// importKey returns the import path as written in p's source for the
// resolved package path (the inverse of ImportMap).
func importKey(lp listPackage, resolved string) string {
	for k, v := range lp.ImportMap {
		if v == resolved {
			return k
		}
	}
	return resolved
}

// listPackageOf turns go/packages metadata into the loader's listing
// record. Standard-library packages are the ones without a module.
func listPackageOf(p *packages.Package, root bool) listPackage {
	lp := listPackage{
		ImportPath: p.PkgPath,
		Name:       p.Name,
		Dir:        p.Dir,
		DepOnly:    !root,
		Standard:   p.Module == nil,
	}
	for _, f := range p.GoFiles {
		if lp.Dir == "" {
			lp.Dir = filepath.Dir(f)
		}
		lp.GoFiles = append(lp.GoFiles, filepath.Base(f))
	}
	if m := p.Module; m != nil {
		lp.Module = &struct {
			Path      string
			Dir       string
			GoVersion string
			Main      bool
		}{m.Path, m.Dir, m.GoVersion, m.Main}
	}
	keys := make([]string, 0, len(p.Imports))
	for k := range p.Imports {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		path := p.Imports[k].PkgPath
		lp.Imports = append(lp.Imports, path)
		if k != path {
			if lp.ImportMap == nil {
				lp.ImportMap = map[string]string{}
			}
			lp.ImportMap[k] = path
		}
	}
	if len(p.Errors) > 0 {
		e := p.Errors[0]
		lp.Error = &struct {
			Pos string
			Err string
		}{e.Pos, e.Msg}
	}
	return lp
}

func (ld *loader) inTree(dir string) bool {
	_, ok := ld.prog.RelPath(filepath.Join(dir, "x.go"))
	return ok
}

// work runs parse and check tasks until everything is checked. Checks go
// first: they are on the critical path of the import graph, parses are
// not.
func (ld *loader) work() {
	for {
		ld.mu.Lock()
		for len(ld.checkQ) == 0 && len(ld.parseQ) == 0 && (ld.listed || len(ld.specQ) == 0) && !(ld.listed && ld.pending == 0) {
			ld.cond.Wait()
		}
		var p *lpkg
		check := false
		switch {
		case len(ld.checkQ) > 0:
			p, ld.checkQ = ld.checkQ[0], ld.checkQ[1:]
			check = true
		case len(ld.parseQ) > 0:
			p, ld.parseQ = ld.parseQ[0], ld.parseQ[1:]
		case !ld.listed && len(ld.specQ) > 0:
			sf := ld.specQ[0]
			ld.specQ = ld.specQ[1:]
			ld.mu.Unlock()
			sf.parse(ld.prog.Fset)
			ld.specImports(sf)
			continue
		default:
			ld.mu.Unlock()
			return
		}
		ld.mu.Unlock()

		if check {
			ld.check(p)
			ld.mu.Lock()
			p.waiting = -1 // checked
			ld.pending--
			for _, pred := range p.preds {
				pred.waiting--
				if pred.waiting == 0 {
					ld.checkQ = append(ld.checkQ, pred)
				}
			}
			p.preds = nil
			ld.cond.Broadcast()
			ld.mu.Unlock()
		} else {
			ld.parse(p)
			ld.mu.Lock()
			p.waiting--
			if p.waiting == 0 {
				ld.checkQ = append(ld.checkQ, p)
				ld.cond.Signal()
			}
			ld.mu.Unlock()
		}
	}
}

// parse parses p's files. Root packages keep comments and bodies;
// dependencies are parsed without comments and their function bodies are
// dropped at once (the type checker ignores them anyway), which roughly
// halves the memory held by dependency syntax.
func (ld *loader) parse(p *lpkg) {
	if ld.ctx.Err() != nil {
		return
	}
	mode := parser.SkipObjectResolution
	if p.root {
		mode = rootParseMode
	}
	for _, filename := range p.pkg.GoFiles {
		if sf := ld.specFor(filename); sf != nil && p.root != sf.dep {
			sf.parse(ld.prog.Fset) // done already, or done now
			if sf.f != nil && sf.err == nil {
				if sf.dep {
					ld.nspecUsed.Add(1)
				}
				if sf.blankFailed {
					ld.nblankFailed.Add(1)
				}
				if rel, ok := ld.prog.RelPath(filename); ok && p.inTree {
					p.syms = appendSymbols(p.syms, p.list.ImportPath, rel, ld.prog.Fset, sf.f, sf.src)
				}
				p.pkg.Syntax = append(p.pkg.Syntax, sf.f)
				sf.src = nil
				continue
			}
		}
		src, err := os.ReadFile(filename)
		if err != nil {
			ld.unparsable(p, packages.Error{Pos: filename, Msg: err.Error(), Kind: packages.ParseError})
			continue
		}
		var f *ast.File
		if !p.root && !ld.noBlank {
			if blanked := blankBodies(src); len(src) > 0 && &blanked[0] != &src[0] {
				f, err = parser.ParseFile(ld.prog.Fset, filename, blanked, mode)
				if err != nil {
					f = nil // misread: parse the original below
					ld.nblankFailed.Add(1)
				}
			}
		}
		if f == nil {
			f, err = parser.ParseFile(ld.prog.Fset, filename, src, mode)
		}
		if err != nil {
			var list scanner.ErrorList
			if errors.As(err, &list) {
				for _, e := range list {
					ld.unparsable(p, packages.Error{Pos: e.Pos.String(), Msg: e.Msg, Kind: packages.ParseError})
				}
			} else {
				ld.unparsable(p, packages.Error{Pos: filename, Msg: err.Error(), Kind: packages.ParseError})
			}
		}
		if f == nil {
			continue
		}
		if p.inTree {
			if rel, ok := ld.prog.RelPath(filename); ok {
				p.syms = appendSymbols(p.syms, p.list.ImportPath, rel, ld.prog.Fset, f, src)
			}
		}
		if !p.root {
			dropBodies(f)
		}
		p.pkg.Syntax = append(p.pkg.Syntax, f)
	}
}

// check type-checks p. Its imports are all checked.
func (ld *loader) check(p *lpkg) {
	if p.list.ImportPath == "unsafe" {
		p.pkg.Types = types.Unsafe
		return
	}
	p.pkg.Types = types.NewPackage(p.list.ImportPath, p.list.Name)
	p.pkg.TypesSizes = ld.sizes
	if ld.ctx.Err() != nil {
		return
	}
	if p.root {
		p.pkg.TypesInfo = &types.Info{
			Types:        map[ast.Expr]types.TypeAndValue{},
			Defs:         map[*ast.Ident]types.Object{},
			Uses:         map[*ast.Ident]types.Object{},
			Implicits:    map[ast.Node]types.Object{},
			Instances:    map[*ast.Ident]types.Instance{},
			Scopes:       map[ast.Node]*types.Scope{},
			Selections:   map[*ast.SelectorExpr]*types.Selection{},
			FileVersions: map[*ast.File]string{},
		}
	}
	tc := &types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if path == "unsafe" {
				return types.Unsafe, nil
			}
			if ip := p.pkg.Imports[path]; ip != nil && ip.Types != nil {
				return ip.Types, nil
			}
			return nil, fmt.Errorf("could not import %s (not listed, or failed)", path)
		}),
		// Dependencies: declarations only. Without bodies there are no
		// "declared and not used" errors to filter, and the unused-import
		// check would only report imports used by the dropped bodies.
		IgnoreFuncBodies:         !p.root,
		DisableUnusedImportCheck: !p.root,
		FakeImportC:              true,
		Sizes:                    ld.sizes,
		Error: func(err error) {
			te, ok := err.(types.Error)
			if !ok {
				ld.report(p, packages.Error{Msg: err.Error(), Kind: packages.TypeError})
				return
			}
			if !p.root && expectedDepError(te.Msg) {
				ld.nfiltered.Add(1)
				return
			}
			p.pkg.TypeErrors = append(p.pkg.TypeErrors, te)
			ld.report(p, packages.Error{Pos: ld.prog.Fset.Position(te.Pos).String(), Msg: te.Msg, Kind: packages.TypeError})
		},
	}
	if m := p.list.Module; m != nil && m.GoVersion != "" {
		tc.GoVersion = "go" + m.GoVersion
	}
	_ = types.NewChecker(tc, ld.prog.Fset, p.pkg.Types, p.pkg.TypesInfo).Files(p.pkg.Syntax)
	if !p.root {
		// Dependency syntax is dropped once checked: keeping it (bodies
		// emptied) is a large part of peak RSS on DefaultRoots
		// (bench/README.md). Positions
		// live on in the FileSet, and Program.DeclLoc gives the spans of
		// in-tree declarations from the symbol index.
		p.pkg.Syntax = nil
	}
}

// expectedDepError reports whether msg is a kind of error that dropping
// function bodies can cause. With IgnoreFuncBodies and
// DisableUnusedImportCheck none should occur; the filter stays as a guard.
func expectedDepError(msg string) bool {
	return strings.Contains(msg, "declared and not used") ||
		strings.Contains(msg, "imported and not used") ||
		strings.Contains(msg, "missing return")
}

// report records an error on p, logs it and counts it.
func (ld *loader) report(p *lpkg, e packages.Error) {
	n := ld.nerrors.Add(1)
	ld.mu.Lock()
	p.pkg.Errors = append(p.pkg.Errors, e)
	p.pkg.IllTyped = true
	ld.mu.Unlock()
	if n <= 50 {
		ld.logf("analyzer: %s: %s", p.list.ImportPath, e)
	} else if n == 51 {
		ld.logf("analyzer: more errors not shown")
	}
}

// unparsable reports a file that could not be read or parsed, and keeps it
// for Load's error.
func (ld *loader) unparsable(p *lpkg, e packages.Error) {
	ld.report(p, e)
	ld.mu.Lock()
	ld.unparsed = append(ld.unparsed, e)
	ld.mu.Unlock()
}

// unparsedError is Load's error for files that could not be read or
// parsed, naming the first in path order, relative to the tree. Unlike a
// type error — a staging module the proxy does not serve leaves its
// importers incomplete, and facts elsewhere are still right — a file
// that does not parse is never part of a release: the tree was damaged
// or edited, and facts from it would be silently short.
func (ld *loader) unparsedError() error {
	if len(ld.unparsed) == 0 {
		return nil
	}
	sort.Slice(ld.unparsed, func(i, j int) bool { return ld.unparsed[i].Pos < ld.unparsed[j].Pos })
	first := ld.unparsed[0]
	pos := first.Pos
	if rel, ok := ld.prog.RelPath(pos); ok {
		pos = rel
	}
	more := ""
	if n := len(ld.unparsed) - 1; n > 0 {
		more = fmt.Sprintf(" (and %d more)", n)
	}
	return fmt.Errorf("%s: %s%s: a Go file of the tree does not parse: fix it, or remove the cached tree so that it is fetched again", pos, first.Msg, more)
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// specFile is a file parsed ahead, before go list has said which
// files the packages have.
type specFile struct {
	name string
	// dep says the file is a dependency's, guessed from an import: it is
	// parsed as parse parses dependencies (bodies blanked, no comments),
	// and src keeps the original for the symbol index.
	dep  bool
	once sync.Once
	src  []byte
	f    *ast.File
	err  error
	// blankFailed is set when the blanked source did not parse.
	blankFailed bool
}

// rootParseMode is how root files are parsed.
const rootParseMode = parser.SkipObjectResolution | parser.ParseComments

func (sf *specFile) parse(fset *token.FileSet) {
	sf.once.Do(func() {
		sf.src, sf.err = os.ReadFile(sf.name)
		if sf.err != nil {
			return
		}
		if !sf.dep {
			sf.f, sf.err = parser.ParseFile(fset, sf.name, sf.src, rootParseMode)
			return
		}
		if blanked := blankBodies(sf.src); len(sf.src) > 0 && &blanked[0] != &sf.src[0] {
			sf.f, sf.err = parser.ParseFile(fset, sf.name, blanked, parser.SkipObjectResolution)
			if sf.err != nil {
				sf.f, sf.blankFailed = nil, true
			}
		}
		if sf.f == nil {
			sf.f, sf.err = parser.ParseFile(fset, sf.name, sf.src, parser.SkipObjectResolution)
		}
		if sf.f != nil {
			dropBodies(sf.f)
		}
	})
}

// dropBodies empties f's function bodies, keeping their braces so that
// declaration spans stay right.
func dropBodies(f *ast.File) {
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
			fd.Body = &ast.BlockStmt{Lbrace: fd.Body.Lbrace, Rbrace: fd.Body.Rbrace}
		}
	}
}

// specFor returns the file parsed ahead under that name, or nil.
func (ld *loader) specFor(name string) *specFile {
	ld.mu.Lock()
	defer ld.mu.Unlock()
	return ld.spec[name]
}

// specImports queues, for parsing ahead as dependencies, the files of
// the in-tree directories sf imports that are not queued yet: the
// Kubernetes module's packages and the staging modules', which are most
// of the source a load parses (std and the modules outside the tree are
// parsed once listed). A directory go list then does not list, or a file
// its build constraints leave out, was parsed for nothing, by a worker
// that had nothing else to do.
func (ld *loader) specImports(sf *specFile) {
	if sf.f == nil {
		return
	}
	var dirs []string
	for _, imp := range sf.f.Imports {
		path, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue
		}
		if d := ld.importDir(path); d != "" {
			dirs = append(dirs, d)
		}
	}
	ld.mu.Lock()
	defer ld.mu.Unlock()
	if ld.listed {
		return
	}
	for _, d := range dirs {
		if !ld.specDirs[d] {
			ld.specDirs[d] = true
			ld.specDir(d, false, true)
		}
	}
	ld.cond.Broadcast()
}

// importDir returns the tree directory of an import path of the
// Kubernetes module or of a staging module, "" for any other.
func (ld *loader) importDir(path string) string {
	switch {
	case ld.modPath != "" && strings.HasPrefix(path, ld.modPath+"/"):
		return filepath.Join(ld.dir, filepath.FromSlash(path[len(ld.modPath)+1:]))
	case strings.HasPrefix(path, "k8s.io/"):
		return filepath.Join(ld.dir, "staging", "src", filepath.FromSlash(path))
	}
	return ""
}

// speculate queues the Go files of the directories the root patterns name,
// to be parsed by idle workers while go list runs: go list prints nothing
// until it has loaded the whole import graph (2 s for DefaultRoots, on
// about one core), and the roots' files — parsed with bodies and comments
// — are the costliest to parse. Each file parsed ahead queues the in-tree
// directories it imports (specImports), so the dependencies' parse
// overlaps the listing too. A file go list then leaves out (build
// constraints) was parsed for nothing; a root whose directory could not be
// guessed (an import path outside the tree's module and staging layout) is
// parsed as usual.
func (ld *loader) speculate(dir string, patterns []string) {
	var modPath string
	if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if f := strings.Fields(line); len(f) == 2 && f[0] == "module" {
				modPath = strings.Trim(f[1], `"`)
				break
			}
		}
	}
	ld.dir, ld.modPath = dir, modPath
	ld.spec = map[string]*specFile{}
	ld.specDirs = map[string]bool{}
	for _, pat := range patterns {
		rec := strings.HasSuffix(pat, "/...")
		pat = strings.TrimSuffix(pat, "/...")
		var d string
		switch {
		case strings.HasPrefix(pat, "./"):
			d = filepath.Join(dir, filepath.FromSlash(pat))
		case modPath != "" && strings.HasPrefix(pat, modPath+"/"):
			d = filepath.Join(dir, filepath.FromSlash(pat[len(modPath)+1:]))
		default: // Kubernetes' staging layout
			d = filepath.Join(dir, "staging", "src", filepath.FromSlash(pat))
		}
		if !strings.HasPrefix(d, dir) {
			continue
		}
		ld.specDir(d, rec, false)
	}
}

// specDir queues the Go files of directory d (and of those below it, when
// rec), as a dependency's when dep.
func (ld *loader) specDir(d string, rec, dep bool) {
	entries, err := os.ReadDir(d)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
			continue
		}
		path := filepath.Join(d, name)
		if e.IsDir() {
			if rec && name != "testdata" && name != "vendor" {
				ld.specDir(path, true, dep)
			}
			continue
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || ld.spec[path] != nil {
			continue
		}
		if dep {
			if ok, err := specBuild.MatchFile(d, name); err == nil && !ok {
				continue // another platform's, or a cgo file: go list leaves it out
			}
		}
		sf := &specFile{name: path, dep: dep}
		if dep {
			ld.nspecDep++
		}
		ld.spec[path] = sf
		ld.specQ = append(ld.specQ, sf)
	}
}

// specBuild decides which files of a dependency's directory are worth
// parsing ahead: those of this platform's build with cgo off, as the
// loader lists (a file's name suffix and //go:build line, read by
// go/build). It only saves work: go list decides what is loaded.
var specBuild = func() *build.Context {
	c := build.Default
	c.CgoEnabled = false
	return &c
}()
