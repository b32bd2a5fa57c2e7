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
// page and the sheet stays under 2 KB. The colours are GitHub's Primer
// syntax palette — the same values chroma's "github" and "github-dark"
// styles are built from — assigned here by hand to semantic classes,
// because those chroma styles leave types and packages uncoloured in light
// mode and colour them in dark mode, which reads as two different
// languages.
//
// Classes: k keyword (written <b>), s string/char, c comment (written
// <i>), i number, t type, f func, m method, o const, b builtin/predeclared,
// p package, v variable (chroma only: Go variables are not coloured), a
// tag/attribute (YAML keys); xd/xi deleted/inserted, xh heading, xs
// strong, xe emphasis, xp prompt. A definition adds d (td, fd, md, od, pd,
// or d alone, written <dfn>, for variables and fields): bold. The site's
// own classes inside a code block (l for a line, n for its number, mark,
// gap, hl) are left free.
func CSS() string { return css }

const css = `.code a{color:inherit;text-decoration:none}
.code a:hover{text-decoration:underline}
.code b{color:#cf222e;font-weight:inherit}
.code .s{color:#0a3069}
.code i{color:#6e7781;font-style:inherit}
.code .i,.code .o,.code .od,.code .b{color:#0550ae}
.code .t,.code .td{color:#953800}
.code .f,.code .fd,.code .m,.code .md{color:#8250df}
.code .p,.code .pd,.code .a{color:#116329}
.code .v{color:#0550ae}
.code dfn{font-style:inherit}
.code dfn,.code .td,.code .fd,.code .md,.code .od,.code .pd,.code .xh,.code .xs{font-weight:600}
.code .xe{font-style:italic}
.code .xp{color:#6e7781}
.code .xd{color:#82071e;background:#ffebe9}
.code .xi{color:#116329;background:#dafbe1}
@media (prefers-color-scheme:dark){
.code b{color:#ff7b72}
.code .s{color:#a5d6ff}
.code i{color:#8b949e}
.code .i,.code .o,.code .od,.code .b{color:#79c0ff}
.code .t,.code .td{color:#ffa657}
.code .f,.code .fd,.code .m,.code .md{color:#d2a8ff}
.code .p,.code .pd,.code .a{color:#7ee787}
.code .v{color:#79c0ff}
.code .xp{color:#8b949e}
.code .xd{color:#ffa198;background:#490202}
.code .xi{color:#56d364;background:#0f5323}
}
`
