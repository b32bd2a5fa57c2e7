package srcmerge

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The regular expressions the href parsers read the patterns of: what
// the package ran before it parsed the hrefs itself, and what the tests
// and the fuzz tests hold the parsers to.
var (
	ghLineHref      = regexp.MustCompile(`^(https://[^"#]*)#L([0-9]+)$`)
	movableHref     = regexp.MustCompile(`^(?:@[0-9]+/[^"]*|https://[^"#]*#L[0-9]+)$`)
	placeholderHref = regexp.MustCompile(`^@([0-9]+)/(.*)$`)
)

// hrefCases are hrefs at the edges of the three patterns.
var hrefCases = []string{
	"",
	"@",
	"@/",
	"@1",
	"@1/",
	"@12/",
	"@12/x.go",
	"@0/x.go",
	"@007/pkg/a b.go",
	"@+1/x.go",
	"@-1/x.go",
	"@ 1/x.go",
	"@1a/x.go",
	"@1//x.go",
	"@12/x\"y.go",
	"@12/x&#34;y.go",
	"@12/x\ny.go",
	"@12/x.go\n",
	"@12/x\ry.go",
	"@12/x#L3",
	"@99999999999999999999999/x.go",
	"@9223372036854775807/x.go",
	"@9223372036854775808/x.go",
	"@12/\xff\xfe",
	"@12/é.go",
	"x@12/x.go",
	" @12/x.go",
	"@12/x.go ",
	"https://",
	"https://#L1",
	"https://#L",
	"https://#L+1",
	"https://#L-1",
	"https://github.com/k/k/blob/v1/x.go#L12",
	"https://github.com/k/k/blob/v1/x.go#L012",
	"https://github.com/k/k/blob/v1/x.go#L0",
	"https://github.com/k/k/blob/v1/x.go#L12-L14",
	"https://github.com/k/k/blob/v1/x.go#L12 ",
	"https://github.com/k/k/blob/v1/x.go#L12\n",
	"https://github.com/k/k/blob/v1/x.go#l12",
	"https://github.com/k/k/blob/v1/x.go#12",
	"https://github.com/k/k/blob/v1/x.go##L12",
	"https://github.com/k/k/blob/v1/x#y.go#L12",
	"https://github.com/k/k/blob/v1/x\".go#L12",
	"https://github.com/k/k/blob/v1/x\n.go#L12",
	"https://github.com/k/k/blob/v1/\xff.go#L12",
	"https://github.com/k/k/blob/v1/x.go#L12#L13",
	"https://github.com/k/k/blob/v1/x.go#L12\"",
	"https://github.com/k/k/blob/v1/x.go#L99999999999999999999999",
	"https://github.com/k/k/blob/v1/x.go",
	"http://github.com/k/k/blob/v1/x.go#L12",
	"HTTPS://github.com/k/k/blob/v1/x.go#L12",
	" https://github.com/k/k/blob/v1/x.go#L12",
	"xhttps://github.com/k/k/blob/v1/x.go#L12",
	"../a.go.html#L12",
	"#L12",
}

// checkGHLine fails t unless parseGHLine reads u as ghLineHref matches it.
func checkGHLine(t *testing.T, u string) {
	t.Helper()
	base, line, ok := parseGHLine(u)
	sm := ghLineHref.FindStringSubmatch(u)
	if ok != (sm != nil) || ok && (base != sm[1] || line != sm[2]) || !ok && (base != "" || line != "") {
		t.Errorf("parseGHLine(%q) = %q, %q, %v; the regexp's groups: %q", u, base, line, ok, sm)
	}
}

// checkMovable fails t unless movable says of u what movableHref does.
func checkMovable(t *testing.T, u string) {
	t.Helper()
	if got, want := movable(u), movableHref.MatchString(u); got != want {
		t.Errorf("movable(%q) = %v, the regexp matches: %v", u, got, want)
	}
}

// checkPlaceholder fails t unless parsePlaceholder reads v as
// placeholderHref matches it, the line as strconv.Atoi reads its digits.
func checkPlaceholder(t *testing.T, v string) {
	t.Helper()
	line, file, ok := parsePlaceholder(v)
	sm := placeholderHref.FindStringSubmatch(v)
	if ok != (sm != nil) || !ok && (line != 0 || file != "") {
		t.Errorf("parsePlaceholder(%q) = %d, %q, %v; the regexp's groups: %q", v, line, file, ok, sm)
		return
	}
	if ok {
		want, _ := strconv.Atoi(sm[1])
		if line != want || file != sm[2] {
			t.Errorf("parsePlaceholder(%q) = %d, %q; the regexp's groups: %q (line %d)", v, line, file, sm, want)
		}
	}
}

// TestHrefParsers: each href parser reads what its regular expression
// matches, and nothing else, with the same groups.
func TestHrefParsers(t *testing.T) {
	for _, u := range hrefCases {
		checkGHLine(t, u)
		checkMovable(t, u)
		checkPlaceholder(t, u)
	}
	for _, c := range []struct {
		u          string
		base, line string
	}{
		{"https://github.com/k/k/blob/v1/x.go#L012", "https://github.com/k/k/blob/v1/x.go", "012"},
		{"https://#L1", "https://", "1"},
	} {
		if base, line, ok := parseGHLine(c.u); !ok || base != c.base || line != c.line {
			t.Errorf("parseGHLine(%q) = %q, %q, %v; want %q, %q", c.u, base, line, ok, c.base, c.line)
		}
	}
	for _, c := range []struct {
		v    string
		line int
		file string
	}{
		{"@12/", 12, ""},
		{"@007/x.go", 7, "x.go"},
		{"@12/x\"y", 12, "x\"y"},
		{"@99999999999999999999999/x.go", int(^uint(0) >> 1), "x.go"},
	} {
		if line, file, ok := parsePlaceholder(c.v); !ok || line != c.line || file != c.file {
			t.Errorf("parsePlaceholder(%q) = %d, %q, %v; want %d, %q", c.v, line, file, ok, c.line, c.file)
		}
	}
}

// TestGHLineMoveDigits: two permalinks to one line written with
// different digits ("L012", "L12") are a move, as when the regular
// expression's groups were compared.
func TestGHLineMoveDigits(t *testing.T) {
	const f = "https://github.com/k/k/blob/v1/x.go"
	if link, a, b, ok := ghLineMove(f+"#L012", f+"#L12"); !ok || link != f || a != 12 || b != 12 {
		t.Errorf("ghLineMove(L012, L12) = %q, %d, %d, %v; want a move from 12 to 12", link, a, b, ok)
	}
	if _, _, _, ok := ghLineMove(f+"#L12", f+"#L12"); ok {
		t.Error("ghLineMove(L12, L12) is a move")
	}
	if _, _, _, ok := ghLineMove(f+"#L12", f+"x#L13"); ok {
		t.Error("ghLineMove between two files is a move")
	}
}

// seedHrefs seeds f with hrefCases, and each with its '/'s and '#'s
// made the bytes the patterns exclude.
func seedHrefs(f *testing.F) {
	for _, u := range hrefCases {
		f.Add(u)
		f.Add(strings.ReplaceAll(u, "/", "\n"))
		f.Add(strings.ReplaceAll(u, "#", `"`))
	}
}

func FuzzParseGHLine(f *testing.F) {
	seedHrefs(f)
	f.Fuzz(func(t *testing.T, u string) { checkGHLine(t, u) })
}

func FuzzMovable(f *testing.F) {
	seedHrefs(f)
	f.Fuzz(func(t *testing.T, u string) { checkMovable(t, u) })
}

func FuzzParsePlaceholder(f *testing.F) {
	seedHrefs(f)
	f.Fuzz(func(t *testing.T, v string) { checkPlaceholder(t, v) })
}

// BenchmarkHrefParsers reads hrefCases with the parsers, and
// BenchmarkHrefRegexps with the regular expressions, for comparison.
func BenchmarkHrefParsers(b *testing.B) {
	for b.Loop() {
		for _, u := range hrefCases {
			parseGHLine(u)
			movable(u)
			parsePlaceholder(u)
		}
	}
}

func BenchmarkHrefRegexps(b *testing.B) {
	for b.Loop() {
		for _, u := range hrefCases {
			ghLineHref.FindStringSubmatch(u)
			movableHref.MatchString(u)
			placeholderHref.FindStringSubmatch(u)
		}
	}
}
