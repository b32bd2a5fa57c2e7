// Package codehtml turns source files into lines of highlighted HTML for
// kubewalk's source pages and excerpts.
//
// Go is highlighted from go/scanner's tokens and the analyzer's identifier
// table (fact.Ident): keywords, strings, comments and numbers by token,
// identifiers by the kind of object they denote, and every identifier
// whose declaration is known becomes a link chosen by the site
// (Options.Link) — but for a variable or field declared outside the site,
// whose GitHub link would weigh 25 times its name (linker.use). Everything else — YAML, shell, JSON, Markdown,
// Dockerfiles — goes through chroma with the same class names (Text).
//
// Output is a []Line, one balanced HTML fragment per source line, so the
// site can wrap each line with its anchor and an excerpt can pick a range:
//
//	lines := codehtml.Go(src, xref.Idents, codehtml.Options{
//		Link: func(t fact.Location) string { return site.href(from, t) },
//	})
//	for i, l := range lines {
//		// <span id="L{{i+1}}">{{l}}</span>
//	}
//	ex := codehtml.Excerpt(lines, decl.StartLine, decl.EndLine, []int{42}, 3)
//
// and the page includes CSS() and puts class="code" (Scope) on the element
// holding the lines.
//
// # Safety
//
// This package is the one place where source text becomes template.HTML
// (lineWriter.lines). All source bytes are escaped; the only markup is the
// package's own elements and anchors; hrefs must pass SafeHref and are
// attribute-escaped, and quoted unless they are one bare token (attr.go);
// a GitHub link's data-g is the rest of such an href after the page's
// https base, staging/src/k8s.io/ written as "~" (CompactGitHub).
// Hostile input is tested in hostile_test.go and attr_test.go.
//
// # Size and speed
//
// A source page of Kubernetes has tens of thousands of tokens, so the
// markup is lean: the commonest classes written as short elements of
// their own (<b>, <i>, <kbd>, <var>, <dfn>: element), one- or two-letter
// class names, attribute values without quotes where HTML allows them
// (bare), no spans for operators, punctuation, whitespace or
// variables/fields (they are still linked), links to GitHub written as
// the rest of their URL after the page's base (Options.GitHub: data-g,
// which the page's script makes an href; without script the identifier
// is no link) with the staging modules' directory, where most of them
// go, one character (CompactGitHub), adjacent tokens of one class merged into one element, one
// output buffer per file (pooled) cut into Lines without copying. The
// site finds and rewrites the links of rendered lines with Hrefs and
// ReplaceHrefs, which read what this package writes, quoted or not,
// href or data-g.
//
// BenchmarkGo and BenchmarkGoParallel (KUBEWALK_BENCH_TREE=/path/to/tree)
// measure the rendering of real files with synthesized identifier tables,
// every identifier linked — the worst case; bench/README.md has the
// figures and the site's budget. go/scanner is a good part of the time;
// it allocates a string per identifier, which a hand-written lexer would
// avoid, but it is the compiler's own lexing and fast enough.
//
// Links are still most of a page, and some files are too big for them:
// Options.DeclsOnly renders an outline (comments and declared names
// classed, nothing linked), which the site uses for Generated files and
// for any file whose full page would pass a megabyte, and Plain is the
// text alone.
package codehtml
