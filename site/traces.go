package site

// TracePage returns the site path of the generated trace page of a kind.
func TracePage(kind string) string { return "traces/" + kind + ".html" }

// traceKinds lists the kinds with a trace page, sorted.
func (b *builder) traceKinds() []string { return nil }
