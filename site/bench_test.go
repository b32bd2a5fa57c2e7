package site

import (
	"context"
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/source"
)

// BenchmarkSourcePages renders the source pages of the non-test Go files
// of pkg/controller, pkg/scheduler and pkg/kubelet from the tree at
// $KUBEWALK_BENCH_TREE, through the same code
// path Build uses (highlight, lay out, write, with Options.Workers =
// GOMAXPROCS), and reports pages/s, total bytes and the largest page,
// against the budget bench/README.md gives: five times the pages per
// second Hugo, a general-purpose site generator, makes of the same files
// with chroma and line anchors but no identifier links, and no more
// output than it writes.
//
// No analyzer runs here, so identifiers are synthesized: every identifier
// named like a top-level func, method or type declared in these files
// links to (the first) such declaration, in-site — a little more linking
// than the analyzer's tables give, so this errs on the slow, large side.
//
//	KUBEWALK_BENCH_TREE=$(go env GOMODCACHE)/k8s.io/kubernetes@v1.31.0 go test -run '^$' -bench SourcePages -cpu 2 ./site
func BenchmarkSourcePages(b *testing.B) {
	root := os.Getenv("KUBEWALK_BENCH_TREE")
	if root == "" {
		b.Skip("KUBEWALK_BENCH_TREE not set (a Kubernetes tree, e.g. `kubewalk fetch --tag v1.31.0 -o dir`)")
	}
	var files []string
	for _, dir := range []string{"pkg/controller", "pkg/scheduler", "pkg/kubelet"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
				rel, _ := filepath.Rel(root, p)
				files = append(files, filepath.ToSlash(rel))
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	sort.Strings(files)
	srcs := map[string][]byte{}
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			b.Fatal(err)
		}
		srcs[f] = data
	}
	xrefs := synthXrefs(files, srcs)
	in := Input{
		Tag: "v1.31.0", Lang: "en", Facts: &fact.Facts{}, Xrefs: xrefs,
		// Read from disk each time, as a real build does.
		ReadFile: func(p string) ([]byte, error) { return os.ReadFile(filepath.Join(root, filepath.FromSlash(p))) },
	}
	opts := Options{SourceURL: func(p string, from, to int) string { return source.Permalink("v1.31.0", p, from, to) }}
	var st Stats
	var elapsed, cpu time.Duration
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		dir := b.TempDir()
		bld, err := prepare(in, opts)
		if err != nil {
			b.Fatal(err)
		}
		bld.files = files
		for _, f := range files {
			bld.rendered[f] = true
		}
		b.StartTimer()
		t0, c0 := time.Now(), cpuTime()
		st, err = bld.write(context.Background(), output{dir: dir})
		elapsed += time.Since(t0)
		cpu += cpuTime() - c0
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(st.SourcePages)*float64(b.N)/elapsed.Seconds(), "pages/s")
	// On a shared machine wall time depends on the neighbours; CPU time
	// (user+system of the whole process, GC included) does not.
	b.ReportMetric(float64(st.SourcePages)*float64(b.N)/cpu.Seconds(), "pages/cpu-s")
	b.ReportMetric(float64(st.Bytes)/1e6, "MB")
	b.ReportMetric(float64(st.LargestBytes)/1e3, "largest-kB")
	b.Logf("%d source pages, %d bytes, largest %s (%d bytes)", st.SourcePages, st.Bytes, st.Largest, st.LargestBytes)
}

// cpuTime is the process's user+system CPU time so far.
func cpuTime() time.Duration {
	var r syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &r)
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}

// synthXrefs builds identifier tables as described on BenchmarkSourcePages.
func synthXrefs(files []string, srcs map[string][]byte) []fact.FileXref {
	type decl struct {
		loc  fact.Location
		kind string
	}
	decls := map[string]decl{}
	scan := func(src []byte, f func(fset *token.File, pos token.Pos, tok token.Token, lit string)) {
		fset := token.NewFileSet()
		tf := fset.AddFile("x.go", -1, len(src))
		var s scanner.Scanner
		s.Init(tf, src, nil, 0)
		for {
			pos, tok, lit := s.Scan()
			if tok == token.EOF {
				return
			}
			f(tf, pos, tok, lit)
		}
	}
	for _, p := range files {
		var prev token.Token
		depth := 0
		afterFuncRecv := false
		scan(srcs[p], func(tf *token.File, pos token.Pos, tok token.Token, lit string) {
			switch tok {
			case token.LBRACE:
				depth++
			case token.RBRACE:
				depth--
			case token.RPAREN:
				if prev == token.IDENT || prev == token.MUL {
					afterFuncRecv = true
				}
			case token.IDENT:
				if depth == 0 && (prev == token.FUNC || prev == token.TYPE || (afterFuncRecv && prev == token.RPAREN)) {
					if _, ok := decls[lit]; !ok {
						kind := "func"
						if prev == token.TYPE {
							kind = "type"
						}
						l := tf.Line(pos)
						decls[lit] = decl{fact.Location{Path: p, StartLine: l, EndLine: l}, kind}
					}
				}
			}
			if tok != token.RPAREN {
				afterFuncRecv = false
			}
			prev = tok
		})
	}
	var xs []fact.FileXref
	for _, p := range files {
		x := fact.FileXref{Path: p}
		scan(srcs[p], func(tf *token.File, pos token.Pos, tok token.Token, lit string) {
			if tok != token.IDENT {
				return
			}
			id := fact.Ident{Off: tf.Offset(pos), Len: len(lit), Kind: "var"}
			if d, ok := decls[lit]; ok {
				id.Kind, id.Target = d.kind, d.loc
				id.Def = d.loc.Path == p && d.loc.StartLine == tf.Line(pos)
			}
			x.Idents = append(x.Idents, id)
		})
		xs = append(xs, x)
	}
	return xs
}
