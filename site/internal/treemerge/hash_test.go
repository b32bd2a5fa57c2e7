package treemerge

import (
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// canon writes the subtree n so that two subtrees write the same string
// exactly when they are the same: the oracle of hashes.
func canon(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		b.WriteString(strconv.Itoa(int(n.Type)))
		b.WriteString(strconv.Quote(n.Namespace))
		b.WriteString(strconv.Quote(n.Data))
		for _, a := range n.Attr {
			b.WriteString(strconv.Quote(a.Namespace) + strconv.Quote(a.Key) + strconv.Quote(a.Val))
		}
		b.WriteByte('(')
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
		b.WriteByte(')')
	}
	walk(n)
	return b.String()
}

// nodes are every node of the documents parsed from srcs.
func nodes(t testing.TB, srcs ...string) []*html.Node {
	var out []*html.Node
	for _, s := range srcs {
		doc, err := html.Parse(strings.NewReader(s))
		if err != nil {
			t.Fatal(err)
		}
		var walk func(*html.Node)
		walk = func(n *html.Node) {
			out = append(out, n)
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c)
			}
		}
		walk(doc)
	}
	return out
}

// checkHashes fails unless two nodes of ns hash alike exactly when their
// subtrees are the same.
func checkHashes(t *testing.T, ns []*html.Node) {
	t.Helper()
	var hs hasher
	h := map[*html.Node]string{}
	for _, n := range ns {
		if n.Parent == nil {
			hs.hashes(n, h)
		}
	}
	cs := make([]string, len(ns))
	for i, n := range ns {
		cs[i] = canon(n)
	}
	for i := range ns {
		for j := i + 1; j < len(ns); j++ {
			if same := cs[i] == cs[j]; same != (h[ns[i]] == h[ns[j]]) {
				t.Fatalf("same subtree %v, same hash %v:\n%s\n%s", same, !same, cs[i], cs[j])
			}
		}
	}
}

func TestHashesMatchContent(t *testing.T) {
	// A hash's hex as an attribute's end: without the parts' lengths, <a
	// title="x"> holding text "t" and <a title="x" + hash of "t"> holding
	// nothing would write the same bytes.
	var hs hasher
	text := hs.hashes(&html.Node{Type: html.TextNode, Data: "t"}, map[*html.Node]string{})
	checkHashes(t, nodes(t,
		`<p><a title="x">t</a><a title="x`+text+`"></a></p>`,
		`<p>ab<b>c</b></p><p>a<b>bc</b></p><p>abc</p><p><!--abc--></p>`,
		`<ul><li>one<li>two<li>one</ul><ul><li>one<li>two<li>one</ul>`,
		`<div id="a" class="b"></div><div class="b" id="a"></div><div id="a:class=b"></div>`,
		`<svg><g><text>x</text></g></svg><p><g>x</g></p>`,
		`<p title="a=b">x</p><p title="a" b="">x</p><p>x</p><p> x</p>`,
	))
}

func FuzzHashes(f *testing.F) {
	f.Add(`<p><a href="#L1">x</a>y</p>`, `<p><a href="#L1">x</a>y</p><p>y</p>`)
	f.Add(`<table><tr><td>a<td>b</table>`, `<ul><li>a</li><li title="b">a</ul>`)
	f.Fuzz(func(t *testing.T, a, b string) {
		ns := nodes(t, a, b)
		if len(ns) > 300 {
			t.Skip("too many nodes to compare each pair")
		}
		checkHashes(t, ns)
	})
}

// hashesFNV is hashes as it was, the baseline of BenchmarkHashes: FNV-128a
// from a new hasher per node, over each child's hash in hex and a start
// tag made a string.
func hashesFNV(n *html.Node, h map[*html.Node]string) string {
	f := fnv.New128a()
	switch n.Type {
	case html.ElementNode:
		f.Write([]byte{'E'})
		f.Write([]byte(startTag(n)))
	case html.TextNode:
		f.Write([]byte{'T'})
		f.Write([]byte(n.Data))
	default:
		f.Write([]byte{'D', byte(n.Type)})
		f.Write([]byte(n.Data))
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		f.Write([]byte(hashesFNV(c, h)))
	}
	s := hex.EncodeToString(f.Sum(nil))
	h[n] = s
	return s
}

// benchPage is an index page's shape: a table of rows of links and text.
func benchPage(b *testing.B) *html.Node {
	var sb strings.Builder
	sb.WriteString(`<!DOCTYPE html><html><head><title>t</title></head><body><table><tbody>`)
	for i := range 4000 {
		fmt.Fprintf(&sb, `<tr id="r-%d"><td><b>Name%d</b><br><a class="loc" href="../src/pkg/x/file%d.go.html#L%d">file%d.go:%d</a></td><td><span class="meta">since 1.%d</span></td></tr>`, i, i, i%50, i, i%50, i, i%30)
	}
	sb.WriteString(`</tbody></table></body></html>`)
	doc, err := html.Parse(strings.NewReader(sb.String()))
	if err != nil {
		b.Fatal(err)
	}
	return doc
}

func BenchmarkHashes(b *testing.B) {
	doc := benchPage(b)
	b.ReportAllocs()
	for b.Loop() {
		var hs hasher
		hs.hashes(doc, map[*html.Node]string{})
	}
}

func BenchmarkHashesFNV(b *testing.B) {
	doc := benchPage(b)
	b.ReportAllocs()
	for b.Loop() {
		hashesFNV(doc, map[*html.Node]string{})
	}
}
