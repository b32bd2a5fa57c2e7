package codehtml

import (
	"strings"
	"testing"
)

// Every class this package writes has a rule (on its element, for the
// classes written as one), light and dark where it has a colour; so does
// the class of every link (a use of an identifier).
func TestCSSCoversClasses(t *testing.T) {
	classes := []string{clsKeyword, clsString, clsComment, clsNumber, clsBuiltin}
	var linked []string
	for _, c := range identClass {
		classes = append(classes, c[0], c[1])
		linked = append(linked, c[0])
	}
	for _, c := range chromaClasses {
		classes = append(classes, c)
	}
	// Classes the site uses inside a code block (templates/assets/site.css).
	siteClasses := map[string]bool{"l": true, "n": true, "mark": true, "gap": true, "hl": true, "src": true, "code": true, "gh": true}
	light, dark, _ := strings.Cut(CSS(), "@media (prefers-color-scheme:dark)")
	check := func(c, sel string) {
		if !strings.Contains(light, sel+",") && !strings.Contains(light, sel+"{") {
			t.Errorf("no rule for class %q (%s)", c, sel)
		}
		if i := strings.Index(light, sel); i >= 0 && strings.Contains(light[i:i+strings.IndexByte(light[i:], '}')], "color:#") &&
			!strings.Contains(dark, sel) {
			t.Errorf("class %q (%s) has a light colour but no dark rule", c, sel)
		}
	}
	for _, c := range classes {
		if c == "" {
			continue
		}
		tag, attr := element(c)
		if siteClasses[c] || siteClasses[attr] {
			t.Errorf("class %q is one the site uses for its own markup", c)
		}
		switch {
		case attr != "":
			check(c, "."+Scope+" ."+attr)
		case tag != "span":
			check(c, "."+Scope+" "+tag)
		default:
			t.Errorf("class %q is written as a span without a class", c)
		}
	}
	for _, c := range linked {
		if c != "" {
			check(c, "."+Scope+" ."+c)
		}
	}
}

// The elements that carry a class have their user agent style undone
// (element): italics, and <kbd>'s monospace font.
func TestCSSResetsElements(t *testing.T) {
	for _, rule := range []string{".code i,.code var,.code dfn{font-style:inherit}", ".code kbd{font:inherit;", ".code b{color:#cf222e;font-weight:inherit}"} {
		if !strings.Contains(CSS(), rule) {
			t.Errorf("CSS lacks %q", rule)
		}
	}
}
