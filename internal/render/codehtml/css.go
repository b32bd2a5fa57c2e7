package codehtml

// Scope is the class of the element that holds highlighted lines: every
// rule of CSS is scoped under it, so one-letter token classes cannot clash
// with the site's own.
const Scope = "code"

// CSS returns the stylesheet for the token classes, light by default and
// dark under prefers-color-scheme: dark.
//
// Go and chroma-highlighted files share one set of classes (see
// chromaClass), so a YAML key and a Go package name look alike on every
// page and the sheet stays small. The colours are GitHub's Primer
// syntax palette — the same values chroma's "github" and "github-dark"
// styles are built from — assigned here by hand to semantic classes,
// because those chroma styles leave types and packages uncoloured in light
// mode and colour them in dark mode, which reads as two different
// languages.
//
// Classes: k keyword (written <b>), s string/char (<kbd>), c comment
// (<i>), i number, b builtin/predeclared, o const and v variable (chroma
// only: Go variables are not coloured), all of one colour and written
// <var> but for a linked const (a.o); t type, f func, m method, p
// package, a tag/attribute (YAML keys); xd/xi deleted/inserted, xh
// heading, xs strong, xe emphasis, xp prompt. A definition is a <dfn>
// (bold), with its kind's class for the colour: td, fd, md, od and pd
// are <dfn class=t> and so on, and d alone (variables and fields) a bare
// <dfn> (element). The site's own classes inside a code block (l for a
// line, n for its number, mark, gap, hl) are left free.
//
// A link is underlined on hover only with an href: a GitHub link has
// none without script (Options.GitHub), and is no link then.
//
// The user agent's own styles for those elements are undone: <i>,
// <var> and <dfn> are italic, and <kbd> is in the browser's monospace
// font, not the page's.
func CSS() string { return css }

const css = `.code a{color:inherit;text-decoration:none}
.code a[href]:hover{text-decoration:underline}
.code b{color:#cf222e;font-weight:inherit}
.code kbd{font:inherit;color:#0a3069}
.code i,.code var,.code dfn{font-style:inherit}
.code i{color:#6e7781}
.code var,.code .o,.code .b{color:#0550ae}
.code .t{color:#953800}
.code .f,.code .m{color:#8250df}
.code .p,.code .a,.code s{color:#116329}
.code s{text-decoration:none;cursor:pointer}
.code s:hover{text-decoration:underline}
.code dfn,.code .xh,.code .xs{font-weight:600}
.code .xe{font-style:italic}
.code .xp{color:#6e7781}
.code .xd{color:#82071e;background:#ffebe9}
.code .xi{color:#116329;background:#dafbe1}
@media (prefers-color-scheme:dark){
.code b{color:#ff7b72}
.code kbd{color:#a5d6ff}
.code i{color:#8b949e}
.code var,.code .o,.code .b{color:#79c0ff}
.code .t{color:#ffa657}
.code .f,.code .m{color:#d2a8ff}
.code .p,.code .a,.code s{color:#7ee787}
.code .xp{color:#8b949e}
.code .xd{color:#ffa198;background:#490202}
.code .xi{color:#56d364;background:#0f5323}
}
`
