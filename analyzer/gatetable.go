package analyzer

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"golang.org/x/tools/go/packages"
)

// This file reads the release's feature-gate table for GatesPass.
//
// Kubernetes declares its gates as map literals: up to 1.30 (and in the
// staging modules until they moved) `map[featuregate.Feature]featuregate.
// FeatureSpec{X: {Default: false, PreRelease: featuregate.Alpha}}`; from
// 1.31 `map[featuregate.Feature]featuregate.VersionedSpecs{X: {{Version:
// version.MustParse("1.31"), Default: false, PreRelease: featuregate.Alpha},
// …}}`, one spec per stage; client-go keeps the same shapes with its own
// types. The literals are package-level variables (pkg/features, the
// apiserver's and apiextensions-apiserver's features) or the result of a
// function (component-base's logs and metrics features). Every value in
// them is a constant expression but Version, a call of version.MustParse
// or version.MajorMinor on constants, so go/types evaluates them.
//
// The tables live in dependencies of the roots, which the loader keeps as
// types only (their syntax is dropped, and no types.Info is made): the
// few packages that declare a table are parsed again, with comments, and
// type-checked with their bodies against the packages already loaded.

// tableKind tells a gate table's type: "spec" for map[Feature]FeatureSpec,
// "versioned" for map[Feature]VersionedSpecs, "" for anything else.
func tableKind(t types.Type) string {
	m, ok := types.Unalias(t).Underlying().(*types.Map)
	if !ok {
		return ""
	}
	for _, pkg := range []string{featuregatePkg, clientFeaturesPkg} {
		if !isNamed(m.Key(), pkg, "Feature") {
			continue
		}
		switch {
		case isNamed(m.Elem(), pkg, "FeatureSpec"):
			return "spec"
		case isNamed(m.Elem(), pkg, "VersionedSpecs"):
			return "versioned"
		}
	}
	return ""
}

// declaresTable reports whether a package has a package-level variable or
// function result of a gate table's type: the packages worth parsing again.
func declaresTable(p *types.Package) bool {
	sc := p.Scope()
	for _, name := range sc.Names() {
		switch o := sc.Lookup(name).(type) {
		case *types.Var:
			if tableKind(o.Type()) != "" {
				return true
			}
		case *types.Func:
			res := o.Type().(*types.Signature).Results()
			for i := range res.Len() {
				if tableKind(res.At(i).Type()) != "" {
					return true
				}
			}
		}
	}
	return false
}

// gateEntry is one gate of one table, before the tables are merged.
type gateEntry struct {
	gate fact.Gate
	pkg  string // the table's package
}

// gateTable reads every table of the tree's loaded packages and returns
// one Gate per name, sorted by name.
func gateTable(ix *index, tag string) ([]fact.Gate, error) {
	bin, _ := binaryVersion(ix.prog, tag)
	var entries []gateEntry
	docs := map[string]string{} // constant's symbol → doc comment
	for _, path := range sortedKeys(ix.prog.Packages) {
		p := ix.prog.Packages[path]
		if p.Types == nil || len(p.GoFiles) == 0 || !declaresTable(p.Types) {
			continue
		}
		if _, in := ix.prog.RelPath(p.GoFiles[0]); !in {
			continue
		}
		files, info, err := tableSyntax(ix.prog, p)
		if err != nil {
			return nil, err
		}
		constDocs(info, files, docs)
		for _, f := range files {
			entries = append(entries, tableEntries(ix.prog, info, f, path, bin)...)
		}
	}
	byName := map[string]gateEntry{}
	for _, e := range entries {
		old, seen := byName[e.gate.Name]
		// Kube relists some staging gates in its own table; the
		// binaries run with the union, and kube's entry is the one
		// the reader's components see.
		if !seen || (e.pkg == kubeFeaturesPkg && old.pkg != kubeFeaturesPkg) {
			byName[e.gate.Name] = e
		}
	}
	var out []fact.Gate
	for _, name := range sortedKeys(byName) {
		g := byName[name].gate
		if len(g.Stages) == 0 { // a release before versioned specs
			g.Stages, g.Since = docStages(docs[g.Const], g.Stage)
		}
		out = append(out, g)
	}
	return out, nil
}

const kubeFeaturesPkg = "k8s.io/kubernetes/pkg/features"

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// tableSyntax returns p's syntax with comments and a types.Info: a root's
// own, or, for a dependency, p parsed and type-checked again.
func tableSyntax(prog *Program, p *packages.Package) ([]*ast.File, *types.Info, error) {
	if p.TypesInfo != nil && len(p.Syntax) > 0 {
		return p.Syntax, p.TypesInfo, nil
	}
	var files []*ast.File
	for _, name := range p.GoFiles {
		f, err := parser.ParseFile(prog.Fset, name, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, nil, fmt.Errorf("gate table of %s: %w", p.PkgPath, err)
		}
		files = append(files, f)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}}
	tc := &types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if path == "unsafe" {
				return types.Unsafe, nil
			}
			if ip := p.Imports[path]; ip != nil && ip.Types != nil {
				return ip.Types, nil
			}
			return nil, fmt.Errorf("could not import %s", path)
		}),
		// Bodies too: some tables are a function's result.
		FakeImportC: true,
		Sizes:       types.SizesFor("gc", runtime.GOARCH),
		// An error leaves the expressions it touches without a value;
		// their entries are skipped, the rest of the table is read.
		Error: func(error) {},
	}
	if m := p.Module; m != nil && m.GoVersion != "" {
		tc.GoVersion = "go" + m.GoVersion
	}
	_, _ = tc.Check(p.PkgPath, prog.Fset, files, info)
	return files, info, nil
}

// constDocs adds the doc comment of every constant declared in files,
// by symbol: the comments record, before versioned specs, when a gate
// reached each stage ("// beta: v1.24").
func constDocs(info *types.Info, files []*ast.File, docs map[string]string) {
	for _, f := range files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, s := range gd.Specs {
				vs := s.(*ast.ValueSpec)
				doc := vs.Doc
				if doc == nil && len(gd.Specs) == 1 {
					doc = gd.Doc
				}
				if doc == nil {
					continue
				}
				for _, n := range vs.Names {
					if sym := ObjectName(info.Defs[n]); sym != "" {
						docs[sym] = doc.Text()
					}
				}
			}
		}
	}
}

// tableEntries reads the gate tables among f's map literals.
func tableEntries(prog *Program, info *types.Info, f *ast.File, pkg string, bin minorVersion) []gateEntry {
	var out []gateEntry
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.CompositeLit)
		if !ok {
			return true
		}
		kind := tableKind(info.Types[lit].Type)
		if kind == "" {
			return true
		}
		for _, elt := range lit.Elts {
			kv, ok := elt.(*ast.KeyValueExpr)
			if !ok {
				continue
			}
			g, ok := tableGate(prog, info, kv, kind, bin)
			if ok {
				out = append(out, gateEntry{g, pkg})
			}
		}
		return false
	})
	return out
}

// tableGate reads one entry of a table.
func tableGate(prog *Program, info *types.Info, kv *ast.KeyValueExpr, kind string, bin minorVersion) (fact.Gate, bool) {
	name, ok := stringConst(info, kv.Key)
	if !ok {
		return fact.Gate{}, false
	}
	g := fact.Gate{Name: name, Spec: prog.Loc(kv.Pos(), kv.End())}
	if obj := usedObject(info, kv.Key); obj != nil {
		g.Const = ObjectName(obj)
		if s, ok := prog.Symbol(g.Const); ok {
			g.Decl = s.Decl
		}
	}
	val, ok := kv.Value.(*ast.CompositeLit)
	if !ok {
		return fact.Gate{}, false
	}
	if kind == "spec" {
		s, ok := readSpec(info, val)
		if !ok {
			return fact.Gate{}, false
		}
		g.Stage, g.Default, g.LockToDefault = s.stage, s.def, s.lock
		return g, true
	}
	var specs []gateSpec
	for _, e := range val.Elts {
		if sl, ok := e.(*ast.CompositeLit); ok {
			if s, ok := readSpec(info, sl); ok {
				specs = append(specs, s)
			}
		}
	}
	if len(specs) == 0 {
		return fact.Gate{}, false
	}
	applyVersioned(&g, specs, bin)
	return g, true
}

// usedObject returns the object an identifier or qualified identifier
// refers to.
func usedObject(info *types.Info, e ast.Expr) types.Object {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return info.Uses[e]
	case *ast.SelectorExpr:
		return info.Uses[e.Sel]
	}
	return nil
}

// gateSpec is a FeatureSpec literal, evaluated.
type gateSpec struct {
	stage     string
	def, lock bool
	version   minorVersion // zero when not given
	minCompat minorVersion
}

// readSpec evaluates a FeatureSpec literal's fields.
func readSpec(info *types.Info, lit *ast.CompositeLit) (gateSpec, bool) {
	s := gateSpec{stage: fact.StageGA} // featuregate.GA is ""
	for _, e := range lit.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			return gateSpec{}, false
		}
		field, _ := kv.Key.(*ast.Ident)
		if field == nil {
			return gateSpec{}, false
		}
		tv := info.Types[kv.Value]
		switch field.Name {
		case "Default", "LockToDefault":
			if tv.Value == nil || tv.Value.Kind() != constant.Bool {
				return gateSpec{}, false
			}
			if field.Name == "Default" {
				s.def = constant.BoolVal(tv.Value)
			} else {
				s.lock = constant.BoolVal(tv.Value)
			}
		case "PreRelease":
			if tv.Value == nil || tv.Value.Kind() != constant.String {
				return gateSpec{}, false
			}
			s.stage = stageName(constant.StringVal(tv.Value))
		case "Version":
			s.version = versionCall(info, kv.Value)
		case "MinCompatibilityVersion":
			s.minCompat = versionCall(info, kv.Value)
		}
	}
	return s, true
}

// stageName maps featuregate's prerelease values to the words readers know.
func stageName(pre string) string {
	switch pre {
	case "ALPHA":
		return fact.StageAlpha
	case "BETA":
		return fact.StageBeta
	case "":
		return fact.StageGA
	case "DEPRECATED":
		return fact.StageDeprecated
	case "PRE-ALPHA":
		return fact.StagePreAlpha
	}
	return strings.ToLower(pre)
}

// minorVersion is a Kubernetes major.minor version; the zero value is
// none.
type minorVersion struct{ major, minor int }

func (v minorVersion) String() string {
	return strconv.Itoa(v.major) + "." + strconv.Itoa(v.minor)
}

func (v minorVersion) isZero() bool { return v == minorVersion{} }

func (v minorVersion) compare(w minorVersion) int {
	return cmp.Or(cmp.Compare(v.major, w.major), cmp.Compare(v.minor, w.minor))
}

// parseMinor reads "1.31", "v1.31" or "v1.31.0".
func parseMinor(s string) (minorVersion, bool) {
	parts := strings.Split(strings.TrimPrefix(s, "v"), ".")
	if len(parts) < 2 {
		return minorVersion{}, false
	}
	maj, err1 := strconv.Atoi(parts[0])
	mn, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil {
		return minorVersion{}, false
	}
	return minorVersion{maj, mn}, true
}

// versionCall evaluates version.MustParse("1.31") or
// version.MajorMinor(1, 31).
func versionCall(info *types.Info, e ast.Expr) minorVersion {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return minorVersion{}
	}
	var args []constant.Value
	for _, a := range call.Args {
		args = append(args, info.Types[a].Value)
	}
	switch {
	case len(args) == 1 && args[0] != nil && args[0].Kind() == constant.String:
		v, _ := parseMinor(constant.StringVal(args[0]))
		return v
	case len(args) == 2 && args[0] != nil && args[1] != nil && args[0].Kind() == constant.Int && args[1].Kind() == constant.Int:
		maj, _ := constant.Int64Val(args[0])
		mn, _ := constant.Int64Val(args[1])
		return minorVersion{int(maj), int(mn)}
	}
	return minorVersion{}
}

// binaryVersion is the version the release's components run as:
// component-base's version.DefaultKubeBinaryVersion when loaded (the
// version featuregate picks specs for by default), else the tag's.
func binaryVersion(prog *Program, tag string) (minorVersion, bool) {
	if p := prog.Packages["k8s.io/component-base/version"]; p != nil && p.Types != nil {
		if c, ok := p.Types.Scope().Lookup("DefaultKubeBinaryVersion").(*types.Const); ok && c.Val().Kind() == constant.String {
			if v, ok := parseMinor(constant.StringVal(c.Val())); ok {
				return v, true
			}
		}
	}
	return parseMinor(tag)
}

// applyVersioned sets g's stage, default and history from its versioned
// specs, as featuregate picks the spec at a version: the last (by
// version) not newer than the binary, skipping one whose
// MinCompatibilityVersion is above the default minimum compatibility
// version (the binary's minus one minor). Without a known binary version
// the newest spec counts.
func applyVersioned(g *fact.Gate, specs []gateSpec, bin minorVersion) {
	slices.SortStableFunc(specs, func(a, b gateSpec) int { return a.version.compare(b.version) })
	if bin.isZero() {
		bin = specs[len(specs)-1].version
	}
	minCompat := minorVersion{bin.major, bin.minor - 1}
	cur := gateSpec{stage: fact.StagePreAlpha}
	var stages []fact.GateStage
	for _, s := range specs {
		if s.version.compare(bin) > 0 || (!s.minCompat.isZero() && minCompat.compare(s.minCompat) < 0) {
			continue
		}
		cur = s
		// One entry per change of stage or default: beta off, then beta
		// on. featuregate's own AllAlpha and AllBeta are at version 0.0,
		// which no release was.
		if s.version.isZero() {
			continue
		}
		if n := len(stages); n == 0 || stages[n-1].Stage != s.stage || *stages[n-1].Default != s.def {
			def := s.def
			stages = append(stages, fact.GateStage{Stage: s.stage, Version: s.version.String(), Default: &def})
		}
	}
	g.Stage, g.Default, g.LockToDefault, g.Stages = cur.stage, cur.def, cur.lock, stages
	for i := len(stages) - 1; i >= 0 && stages[i].Stage == cur.stage; i-- {
		g.Since = stages[i].Version
	}
}

// stageLineRE matches the stage lines of a gate constant's doc comment
// before versioned specs: "alpha: v1.31", "beta: v1.24", "GA: v1.26".
var stageLineRE = regexp.MustCompile(`(?im)^\s*(alpha|beta|ga|stable|deprecated)\s*:\s*v?(\d+\.\d+)`)

// docStages reads the stages a gate's doc comment records, and the
// version the current stage began in.
func docStages(doc, stage string) (stages []fact.GateStage, since string) {
	for _, m := range stageLineRE.FindAllStringSubmatch(doc, -1) {
		st := strings.ToLower(m[1])
		switch st {
		case "ga", "stable":
			st = fact.StageGA
		}
		stages = append(stages, fact.GateStage{Stage: st, Version: m[2]})
		if st == stage {
			since = m[2]
		}
	}
	return stages, since
}
