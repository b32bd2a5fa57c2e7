package walkthrough

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/testsupport/fakeresolver"
)

const fm = "---\ntitle: T\nparticipants: [a, b]\n---\n" // 4 lines

// TestErrors checks that each malformed walkthrough reports the right
// file:line:col. want is the exact first error; the English file is
// w.md, a translation w.ko.md. It is long because it is a table, one case
// a line, read as a list of the messages a writer can meet.
func TestErrors(t *testing.T) {
	syms := map[string]fakeresolver.Symbol{
		"k8s.io/x/p.F": {Symbol: fact.Symbol{Name: "k8s.io/x/p.F", Kind: "func", Decl: fact.Location{Path: "p/f.go", StartLine: 10, EndLine: 13}},
			Lines: []string{"func F() {", "\ta()", "\tb()", "}"}},
		"k8s.io/x/p.G": {Symbol: fact.Symbol{Name: "k8s.io/x/p.G", Kind: "func", Decl: fact.Location{Path: "p/f.go", StartLine: 20, EndLine: 20}},
			Lines: []string{"func G() {}"}},
	}
	facts := &fact.Facts{Tag: "v1.31.0", Events: []fact.Event{{Caller: fact.FuncRef{Symbol: "k8s.io/x/p.F"}, Reason: "Started"}}}
	ok := fm + "\n## S\n\n```excerpt\nname: n\nref: k8s.io/x/p.F\n```\n"
	tests := []struct {
		name, en, ko string
		want         string
	}{
		{"no front matter", "## S\n", "", "w.md:1:1: missing front matter"},
		{"unknown front matter key", "---\ntitle: T\nauthor: me\n---\n## S\n", "", `w.md:3:1: unknown front matter key "author"`},
		{"bad order", "---\ntitle: T\norder: first\n---\n## S\n", "", "w.md:3:1: front matter order:"},
		{"no title", "---\nsummary: s\n---\n## S\n", "", "w.md:1:1: front matter has no title"},
		{"no steps", fm + "\nJust prose.\n", "", "w.md:1:1: no steps"},
		{"h1", fm + "# Title\n## S\n", "", "w.md:5:1: level-1 heading"},
		{"from not participant", fm + "\n## S {from=a to=c}\n", "", `w.md:6:6: "c" is not among the front matter's participants`},
		{"from without to", fm + "\n## S {from=a}\n", "", "w.md:6:6: a step's message needs both from= and to="},
		{"label alone", fm + "\n## S {label=x}\n", "", "w.md:6:6: label= needs from= and to="},
		{"onclick attribute", fm + "\n## S {onclick=\"alert(1)\"}\n", "", `w.md:6:6: unknown heading attribute "onclick"`},
		{"class on step", fm + "\n## S {.red}\n", "", `w.md:6:6: unknown heading attribute "class"`},
		{"style on sub-heading", fm + "\n## S\n### Sub {style=\"x\"}\n", "", `w.md:7:9: unknown heading attribute "style" (a sub-heading takes only an id)`},
		{"bad id", fm + "\n## S {id=\"a b\"}\n", "", `w.md:6:6: heading id "a b"`},
		{"duplicate id", fm + "\n## S {#x}\n## T {#x}\n", "", `w.md:7:1: id "x" already used on line 6`},
		{"excerpt without ref", fm + "\n## S\n\n```excerpt\ncaption: c\n```\n", "", "w.md:8:1: excerpt block has no ref:"},
		{"excerpt unknown key", fm + "\n## S\n\n```excerpt\nref: k8s.io/x/p.F\n  colour: red\n```\n", "", `w.md:10:3: unknown key "colour"`},
		{"excerpt bad regexp", fm + "\n## S\n\n```excerpt\nref: k8s.io/x/p.F\nlines: a(\n```\n", "", "w.md:10:8: lines: bad regexp"},
		{"excerpt lines twice", fm + "\n## S\n\n```excerpt\nref: k8s.io/x/p.F /a/\nlines: b\n```\n", "", "w.md:10:1: lines: given twice"},
		{"excerpt bad context", fm + "\n## S\n\n```excerpt\nref: k8s.io/x/p.F\ncontext: -1\n```\n", "", "w.md:10:10: context:"},
		{"excerpt not key value", fm + "\n## S\n\n```excerpt\nref: k8s.io/x/p.F\njunk\n```\n", "", "w.md:10:1: want key: value"},
		{"excerpt unresolved", fm + "\n## S\n\n```excerpt\nref: k8s.io/x/p.f\n```\n", "", "w.md:9:6: reference k8s.io/x/p.f does not resolve (did you mean k8s.io/x/p.F?)"},
		{"excerpt lines match nothing", fm + "\n## S\n\n```excerpt\nref: k8s.io/x/p.F\nlines: nothing\n```\n", "", "w.md:10:8: lines /nothing/ matches no line of k8s.io/x/p.F (p/f.go:10-13)"},
		{"excerpt from matches nothing", fm + "\n## S\n\n```excerpt\nref: k8s.io/x/p.F\nfrom: nothing\n```\n", "", "w.md:10:7: from /nothing/ matches no line"},
		{"excerpt to before from", fm + "\n## S\n\n```excerpt\nref: k8s.io/x/p.F\nfrom: b\\(\nto: a\\(\n```\n", "", "w.md:11:5: to /a\\(/ matches no line of k8s.io/x/p.F at or after line 12"},
		{"excerpt lines outside from-to", fm + "\n## S\n\n```excerpt\nref: k8s.io/x/p.F\nlines: a\\(\nfrom: b\\(\n```\n", "", "w.md:10:8: lines /a\\(/ matches no line between from and to (12-13)"},
		{"excerpt use unknown", fm + "\n## S\n\n```excerpt\nuse: nn\n```\n", "", `w.md:9:6: use: no excerpt named "nn"`},
		{"excerpt use with ref", fm + "\n## S\n\n```excerpt\nname: n\nref: k8s.io/x/p.F\n```\n```excerpt\nuse: n\nref: k8s.io/x/p.G\n```\n", "", "w.md:14:1: ref: not allowed with use:"},
		{"duplicate name", fm + "\n## S\n\n```excerpt\nname: n\nref: k8s.io/x/p.F\n```\n```excerpt\nname: n\nref: k8s.io/x/p.G\n```\n", "", `w.md:13:7: excerpt name "n" used twice`},
		{"nested excerpt", fm + "\n## S\n\n- item\n\n  ```excerpt\n  ref: k8s.io/x/p.F\n  ```\n", "", "w.md:10:1: excerpt blocks must not be nested"},
		{"facts unknown kind", fm + "\n## S\n\n```facts\nwatchers: resource=pods\n```\n", "", "w.md:9:1: want handlers:, events: or writes:"},
		{"facts unknown selector", fm + "\n## S\n\n```facts\nevents: reason=Started colour=red\n```\n", "", `w.md:9:24: events: unknown selector "colour"`},
		{"facts two queries", fm + "\n## S\n\n```facts\nevents: reason=Started\nevents: reason=Pulled\n```\n", "", "w.md:10:1: a facts block holds one query"},
		{"facts empty", fm + "\n## S\n\n```facts\n```\n", "", "w.md:8:1: empty facts block"},
		{"facts no result", fm + "\n## S\n\n```facts\nevents: reason=Pulled\n```\n", "", "w.md:9:1: events: reason=Pulled matches nothing at v1.31.0"},
		{"inline ref bad", fm + "\n## S\n\nSee [F](<go:k8s.io/x/p.F /a(/>).\n", "", "w.md:8:5: reference \"k8s.io/x/p.F /a(/\": error parsing regexp"},
		{"inline ref unresolved", fm + "\n## S\n\nSee\n**[`F`](https://pkg.go.dev/k8s.io/x/p#H)**.\n", "", "w.md:9:3: reference https://pkg.go.dev/k8s.io/x/p#H does not resolve"},
		{"inline ref lines match nothing", fm + "\n## S\n\nSee [F](<go:k8s.io/x/p.F /zzz/>).\n", "", "w.md:8:5: reference go:k8s.io/x/p.F /zzz/: /zzz/ matches no line of k8s.io/x/p.F (p/f.go:10-13)"},
		{"inline ref alternates", fm + "\n## S\n\n[F](<go:k8s.io/x/p.Old | .Older>)\n", "", "w.md:8:1: reference go:k8s.io/x/p.Old | .Older does not resolve"},
		{"notrun unknown attribute", fm + "\n## S\n\nSee [F](go:k8s.io/x/p.F){colour=\"red\"}.\n", "", `w.md:8:25: unknown reference attribute "colour" (a reference takes only notrun): write {notrun="why the code is not meant to run"} right after the reference's link`},
		{"empty attribute block", fm + "\n## S\n\nSee [F](go:k8s.io/x/p.F){}.\n", "", "w.md:8:25: empty attribute block after the reference"},
		{"notrun empty", fm + "\n## S\n\nSee [F](go:k8s.io/x/p.F){notrun=\"\"}.\n", "", "w.md:8:25: notrun: the reason is empty"},
		{"notrun a number", fm + "\n## S\n\nSee [F](go:k8s.io/x/p.F){notrun=3}.\n", "", "w.md:8:25: notrun: want the reason as a quoted string"},
		{"notrun unquoted blanks", fm + "\n## S\n\nSee [F](go:k8s.io/x/p.F){notrun=an error path}.\n", "", "w.md:8:25: the attribute block after the reference does not parse"},
		{"notrun after a blank", fm + "\n## S\n\nSee [F](go:k8s.io/x/p.F) {notrun=\"x\"}.\n", "", "w.md:8:26: this notrun mark follows no symbol reference: write {notrun="},
		{"notrun after a web link", fm + "\n## S\n\n[w](https://example.com){notrun=\"x\"}\n", "", "w.md:8:25: this notrun mark follows no symbol reference"},
		{"notrun twice", fm + "\n## S\n\n[F](go:k8s.io/x/p.F){notrun=\"x\"}{notrun=\"y\"}\n", "", "w.md:8:33: this notrun mark follows no symbol reference"},
		{"excerpt notrun empty", fm + "\n## S\n\n```excerpt\nref: k8s.io/x/p.F\nnotrun:\n```\n", "", "w.md:10:1: notrun: the reason is empty"},
		{"translation notrun unknown", ok, "---\ntitle: K\n---\n## S\n\n[F](go:k8s.io/x/p.F){why=\"x\"}\n", `w.ko.md:6:21: unknown reference attribute "why"`},
		{"translation order", ok, "---\ntitle: K\norder: 2\n---\n## S\n", "w.ko.md:3:1: order: is set in the English file w.md only"},
		{"translation steps", ok, "---\ntitle: K\n---\n## S\n## T\n", "w.ko.md:5:1: 2 steps, but w.md has 1"},
		{"translation from", ok, "---\ntitle: K\n---\n## S {from=a to=b}\n", "w.ko.md:4:6: heading attribute from is set in the English file w.md only"},
		{"translation en on the original", "---\ntitle: W\n---\n## S {en=\"0123abcd\"}\n", "", "w.md:4:6: heading attribute en= is for a translation's step"},
		{"translation en not a fingerprint", ok, "---\ntitle: K\n---\n## S {en=v1}\n", `w.ko.md:4:6: heading attribute en="v1": want the 8 hex digits`},
		{"translation participants", ok, "---\ntitle: K\nparticipants: [x]\n---\n## S\n", "w.ko.md:3:1: participants: 1 names, but w.md has 2"},
		{"attributes that do not parse", fm + "\n## S {from=a to=b label=\"x {id=\"y\" z}\"}\n", "", `w.md:6:6: the heading's attribute block does not parse`},
		{"translation en inside the label", ok, "---\ntitle: K\n---\n## 단계 {label=\"a/{en=\"0123abcd\" name}/b\"}\n", `w.ko.md:4:11: the heading's attribute block does not parse`},
		{"translation use unknown", ok, "---\ntitle: K\n---\n## S\n```excerpt\nuse: m\n```\n", `w.ko.md:6:6: use: no excerpt named "m" (did you mean n?)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{"w.md": {Data: []byte(tt.en)}}
			if tt.ko != "" {
				fsys["w.ko.md"] = &fstest.MapFile{Data: []byte(tt.ko)}
			}
			errs := Check(fsys, ".", testOptions(&fakeresolver.Resolver{Symbols: syms, Found: facts}))
			if len(errs) == 0 {
				t.Fatalf("no error, want %s", tt.want)
			}
			for _, err := range errs {
				if strings.HasPrefix(err.Error(), tt.want) {
					var e *Error
					if !errors.As(err, &e) {
						t.Errorf("%v is not an *Error", err)
					}
					return
				}
			}
			var got []string
			for _, e := range errs {
				got = append(got, e.Error())
			}
			t.Errorf("got\n\t%s\nwant one starting\n\t%s", strings.Join(got, "\n\t"), tt.want)
		})
	}
}

func TestErrorString(t *testing.T) {
	for _, tt := range []struct {
		e    Error
		want string
	}{
		{Error{File: "a.md", Line: 3, Col: 7, Msg: "m", Suggestions: []string{"X", "Y"}}, "a.md:3:7: m (did you mean X, Y?)"},
		{Error{File: "a.md", Line: 3, Msg: "m"}, "a.md:3: m"},
		{Error{File: "a.md", Msg: "m"}, "a.md: m"},
	} {
		if got := tt.e.Error(); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
}

// TestHeadingBraces checks that braces a heading holds as text, not as
// an attribute block, stay in its title and are no error.
func TestHeadingBraces(t *testing.T) {
	src := fm + "\n## The struct{} literal\n\n## A map {k: v}\n"
	d, err := Parse("w.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range d.Steps {
		got = append(got, s.Title)
	}
	if want := []string{"The struct{} literal", "A map {k: v}"}; !slices.Equal(got, want) {
		t.Errorf("titles %q, want %q", got, want)
	}
}

// TestCheckAll checks that Check reports every problem, not the first.
func TestCheckAll(t *testing.T) {
	src := fm + "\n## S {from=a to=z}\n\n```excerpt\nref: k8s.io/x/p.Nope\n```\n\n```facts\nevents: reason=Nope\n```\n"
	errs := Check(fstest.MapFS{"w.md": {Data: []byte(src)}}, ".", testOptions(&fakeresolver.Resolver{Found: &fact.Facts{}}))
	if len(errs) != 3 {
		t.Errorf("got %d errors, want 3: %v", len(errs), errs)
	}
}

// TestLinkEscapes pins down how a regexp in a link destination reads:
// goldmark keeps backslashes in Link.Destination as written (it resolves
// escapes only when rendering an href), so a regexp is written as is, in
// inline links and in definitions alike.
func TestLinkEscapes(t *testing.T) {
	s, err := Parse("w.md", []byte(fm+"\n## S\n\n[a](<go:k8s.io/x/p.F /a\\.b\\(/>) [b][] [`c`](go:k8s.io/x/p.F)\n\n[b]: <go:k8s.io/x/p.F /a\\.b\\(/>\n"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range s.Refs {
		got = append(got, fmt.Sprintf("%d:%d %s", r.Line, r.Col, r.Ref.Lines))
	}
	if want := []string{`8:1 a\.b\(`, `8:33 a\.b\(`, `8:39 `}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", got, want)
	}
}
