package codehtml

import (
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// benchFile is one real source file with a synthesized identifier table.
type benchFile struct {
	path   string
	src    []byte
	idents []fact.Ident
}

// benchFiles loads the non-test Go files of the directories Hugo's
// baseline is measured on (bench/hugo), from the tree in
// KUBEWALK_BENCH_TREE (skipping without it).
//
// The analyzer is not run here: identifiers are synthesized from go/scanner
// IDENT tokens so the benchmark measures this package alone. Every
// identifier gets a target, which is the worst case for size (the real
// analyzer leaves standard-library and third-party objects unlinked): a
// selector (after '.') points into another file, anything else into the
// same file; the first occurrence of a name is its definition.
func benchFiles(tb testing.TB) []benchFile {
	root := os.Getenv("KUBEWALK_BENCH_TREE")
	if root == "" {
		tb.Skip("KUBEWALK_BENCH_TREE not set")
	}
	var files []benchFile
	for _, dir := range []string{"pkg/controller", "pkg/scheduler", "pkg/kubelet"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return err
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			files = append(files, benchFile{rel, src, synthIdents(rel, src)})
			return nil
		})
		if err != nil {
			tb.Fatal(err)
		}
	}
	return files
}

func synthIdents(path string, src []byte) []fact.Ident {
	fset := token.NewFileSet()
	f := fset.AddFile(path, -1, len(src))
	var s scanner.Scanner
	s.Init(f, src, nil, 0)
	seen := map[string]int{}
	var out []fact.Ident
	prev := token.ILLEGAL
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.IDENT && lit != "_" {
			line := f.Line(pos)
			id := fact.Ident{Off: f.Offset(pos), Len: len(lit)}
			switch {
			case prev == token.PERIOD:
				id.Kind = "method"
				id.Target = fact.Location{Path: "staging/src/k8s.io/client-go/tools/cache/shared_informer.go", StartLine: 100 + len(lit), EndLine: 100 + len(lit)}
			default:
				id.Kind = "var"
				if l, ok := seen[lit]; ok {
					line = l
				} else {
					seen[lit] = line
					id.Def = true
				}
				id.Target = fact.Location{Path: path, StartLine: line, EndLine: line}
			}
			out = append(out, id)
		}
		prev = tok
	}
	return out
}

// benchLink builds hrefs the way a site would: "#L12" within the file, a
// relative path to the rendered page of another file.
func benchLink(path string) func(fact.Location) string {
	return func(t fact.Location) string {
		if t.Path == path {
			return "#L" + strconv.Itoa(t.StartLine)
		}
		return "../../../" + t.Path + ".html#L" + strconv.Itoa(t.StartLine)
	}
}

// BenchmarkGo highlights every file once per iteration and reports
// throughput, files per second, and output bytes per source line (with and
// without a page-like wrapping of each line in an anchor span, the shape a
// source page has).
func BenchmarkGo(b *testing.B) {
	files := benchFiles(b)
	var inBytes, inLines int
	for _, f := range files {
		inBytes += len(f.src)
		inLines += strings.Count(string(f.src), "\n")
	}
	b.SetBytes(int64(inBytes))
	b.ResetTimer()
	var outBytes, wrapped int
	for b.Loop() {
		outBytes, wrapped = 0, 0
		for _, f := range files {
			lines := Go(f.src, f.idents, Options{Link: benchLink(f.path)})
			for i, l := range lines {
				outBytes += len(l) + 1
				// <u id=L123>…\n</u>, as a source page wraps it.
				wrapped += len(l) + len("<u id=L>\n</u>") + len(strconv.Itoa(i+1))
			}
		}
	}
	b.ReportMetric(float64(len(files)*b.N)/b.Elapsed().Seconds(), "files/s")
	b.ReportMetric(float64(outBytes)/float64(inLines), "B/line")
	b.ReportMetric(float64(wrapped)/float64(inLines), "pageB/line")
	b.ReportMetric(float64(len(files)), "files")
	b.ReportMetric(float64(wrapped)/1e6, "pageMB")
}

// BenchmarkGoParallel is BenchmarkGo on every CPU (GOMAXPROCS), the way a
// site build renders pages: files/s here is the figure to hold against
// the site's target of five times Hugo's 155 pages/s on the same files,
// 775 files/s on two cores (site's BenchmarkSourcePages says why).
func BenchmarkGoParallel(b *testing.B) {
	files := benchFiles(b)
	var inBytes int
	for _, f := range files {
		inBytes += len(f.src)
	}
	b.SetBytes(int64(inBytes))
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			for _, f := range files {
				Go(f.src, f.idents, Options{Link: benchLink(f.path)})
			}
		}
	})
	b.ReportMetric(float64(len(files)*b.N)/b.Elapsed().Seconds(), "files/s")
}

// hrefBenchGitHub is the GitHub base renderHrefLines renders with.
const hrefBenchGitHub = "https://github.com/kubernetes/kubernetes/blob/v1.37.2/"

// hrefBenchLines are lines as a site renders them (renderHrefLines): of
// the files of benchFiles when KUBEWALK_BENCH_TREE is set, and else of
// this package's own Go files (ownFiles), which are always there.
func hrefBenchLines(tb testing.TB) []string {
	if os.Getenv("KUBEWALK_BENCH_TREE") != "" {
		return renderHrefLines(benchFiles(tb))
	}
	return renderHrefLines(ownFiles(tb))
}

// ownFiles are this package's non-test Go files, with identifiers as
// benchFiles synthesizes them.
func ownFiles(tb testing.TB) []benchFile {
	names, err := filepath.Glob("*.go")
	if err != nil {
		tb.Fatal(err)
	}
	var files []benchFile
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			tb.Fatal(err)
		}
		path := "internal/render/codehtml/" + name
		files = append(files, benchFile{path, src, synthIdents(path, src)})
	}
	return files
}

// renderHrefLines renders files' lines as a site does, with links to the
// same file in an href and to other files (staging, as synthIdents has
// it) in a GitHub link's data-g.
func renderHrefLines(files []benchFile) []string {
	var out []string
	for _, f := range files {
		link := func(t fact.Location) string {
			if t.Path == f.path {
				return "#L" + strconv.Itoa(t.StartLine)
			}
			return hrefBenchGitHub + t.Path + "#L" + strconv.Itoa(t.StartLine)
		}
		for _, l := range Go(f.src, f.idents, Options{Link: link, GitHub: hrefBenchGitHub}) {
			out = append(out, string(l))
		}
	}
	return out
}

// benchHrefs runs hrefs, and replace with a func that empties every
// GitHub link and declines the rest (the way srcmerge empties the links
// that may move), over every line of hrefBenchLines.
func benchHrefs(b *testing.B, hrefs func(string) []Href, replace func(string, func(Href) (Href, bool)) string) {
	lines := hrefBenchLines(b)
	var n int
	for _, l := range lines {
		n += len(l)
	}
	b.Run("Hrefs", func(b *testing.B) {
		b.SetBytes(int64(n))
		links := 0
		for b.Loop() {
			links = 0
			for _, l := range lines {
				links += len(hrefs(l))
			}
		}
		b.ReportMetric(float64(len(lines)), "lines")
		b.ReportMetric(float64(links), "links")
	})
	b.Run("ReplaceHrefs", func(b *testing.B) {
		b.SetBytes(int64(n))
		f := func(v Href) (Href, bool) { return Href{}, v.GitHub }
		for b.Loop() {
			for _, l := range lines {
				replace(l, f)
			}
		}
	})
}

// BenchmarkHrefs is Hrefs and ReplaceHrefs over lines as a site renders
// them; BenchmarkHrefsRegexp is the regular expression they are held to
// (hrefRE, attr_test.go) over the same lines.
func BenchmarkHrefs(b *testing.B) { benchHrefs(b, Hrefs, ReplaceHrefs) }

func BenchmarkHrefsRegexp(b *testing.B) { benchHrefs(b, regexpHrefs, regexpReplaceHrefs) }
