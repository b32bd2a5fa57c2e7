// Package codehtml turns source files into lines of highlighted HTML for
// kubewalk's source pages and excerpts.
//
// Go is highlighted from go/scanner's tokens and the analyzer's identifier
// table (analyzer.Ident): keywords, strings, comments and numbers by token,
// identifiers by the kind of object they denote, and every identifier
// whose declaration is known becomes a link chosen by the site
// (Options.Link). Everything else — YAML, shell, JSON, Markdown,
// Dockerfiles — goes through chroma with the same class names (Text).
//
// Output is a []Line, one balanced HTML fragment per source line, so the
// site can wrap each line with its anchor and an excerpt can pick a range:
//
//	lines := codehtml.Go(src, xref.Idents, codehtml.Options{
//		Link: func(t analyzer.Location) string { return site.href(from, t) },
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
// package's own spans and anchors; hrefs must pass SafeHref and are
// attribute-escaped. Hostile input is tested in hostile_test.go.
//
// # Size and speed
//
// A source page of Kubernetes has tens of thousands of tokens, so the
// markup is lean: one- or two-letter class names, unquoted class
// attributes, no spans for operators, punctuation, whitespace or
// variables/fields (they are still linked), adjacent tokens of one class
// merged into one span, one output buffer per file (pooled) cut into
// Lines without copying. BenchmarkGo measures it on real Kubernetes files.
package codehtml
