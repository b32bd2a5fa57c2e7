// Command hugo writes the Hugo site that `make bench` (bench/run.sh) times
// as the baseline the site's render speed and size are held against (a
// general-purpose site generator's source pages): one page per non-test Go
// file of pkg/controller, pkg/scheduler and pkg/kubelet of a Kubernetes
// tree, each page the whole file in one fenced ```go block that Hugo
// highlights with chroma, with line numbers in a table and an anchor on
// every line (markup.highlight: lineNos, lineNumbersInTable, anchorLineNos,
// lineAnchors) and CSS classes rather than inline styles (noClasses =
// false): of the four lineNumbersInTable × noClasses variants, this one's
// output is the nearest in size to the reference's (bench/README.md).
//
//	go run ./bench/hugo -tree DIR -out SITE
//
// It prints "files N lines L bytes B" for the summary. The site is written
// afresh (SITE is removed first); build it with `hugo --quiet -s SITE`.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Dirs are the directories the reference measurement covers: the
// controllers, the scheduler and the kubelet, which the walkthroughs cite.
var Dirs = []string{"pkg/controller", "pkg/scheduler", "pkg/kubelet"}

const config = `baseURL = "http://localhost/"
title = "kubewalk bench: Hugo baseline"
disableKinds = ["taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404", "section"]
enableRobotsTXT = false

[markup.highlight]
  codeFences = true
  guessSyntax = false
  lineNos = true
  lineNumbersInTable = true
  anchorLineNos = true
  lineAnchors = "L"
  noClasses = false
  style = "monokai"
`

const single = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{{ .Title }}</title></head>
<body><h1>{{ .Title }}</h1>
{{ .Content }}
</body></html>
`

const home = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{{ .Site.Title }}</title></head>
<body><h1>{{ .Site.Title }}</h1><p>{{ len .Site.RegularPages }} pages</p></body></html>
`

func main() {
	tree := flag.String("tree", "", "Kubernetes tree (kubewalk fetch -o dir)")
	out := flag.String("out", "", "site directory to write (removed first)")
	flag.Parse()
	if *tree == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: hugo -tree DIR -out SITE")
		os.Exit(2)
	}
	if err := run(*tree, *out); err != nil {
		fmt.Fprintln(os.Stderr, "bench/hugo:", err)
		os.Exit(1)
	}
}

func run(tree, out string) error {
	var files []string
	for _, d := range Dirs {
		err := filepath.WalkDir(filepath.Join(tree, d), func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !e.IsDir() && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
				rel, _ := filepath.Rel(tree, p)
				files = append(files, filepath.ToSlash(rel))
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	sort.Strings(files)
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	write := func(rel string, data []byte) error {
		p := filepath.Join(out, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		return os.WriteFile(p, data, 0o644)
	}
	for rel, s := range map[string]string{
		"hugo.toml":           config,
		"layouts/single.html": single,
		"layouts/home.html":   home,
	} {
		if err := write(rel, []byte(s)); err != nil {
			return err
		}
	}
	lines, size := 0, 0
	for _, f := range files {
		src, err := os.ReadFile(filepath.Join(tree, filepath.FromSlash(f)))
		if err != nil {
			return err
		}
		lines += bytes.Count(src, []byte("\n"))
		size += len(src)
		// A backtick fence longer than any backtick run in the file.
		fence := strings.Repeat("`", max(3, longestRun(src, '`')+1))
		var b bytes.Buffer
		fmt.Fprintf(&b, "+++\ntitle = %q\n+++\n\n%sgo\n", f, fence)
		b.Write(src)
		if len(src) > 0 && src[len(src)-1] != '\n' {
			b.WriteByte('\n')
		}
		b.WriteString(fence + "\n")
		// content/pkg/x/y.go.md → /pkg/x/y.go/index.html
		if err := write("content/"+f+".md", b.Bytes()); err != nil {
			return err
		}
	}
	fmt.Printf("files %d lines %d bytes %d\n", len(files), lines, size)
	return nil
}

func longestRun(b []byte, c byte) int {
	best, n := 0, 0
	for _, x := range b {
		if x == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}
