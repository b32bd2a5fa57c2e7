// Package fact holds the plain data the analyzer hands to the rest of
// kubewalk, and the few rules for reading it that every stage shares.
//
// The data: the facts the discovery passes find (Facts and what it lists:
// handler registrations, wirings, writes, events, list-watches, informer
// requests, feature gates and their checks, call edges), the symbol index (Symbol), the identifier cross-references of
// source pages (FileXref, Ident), and symbol references as walkthroughs
// write them (Ref, parsed by ParseRef, and Resolved once looked up, or a
// resolver's NotFoundError or ErrNoMatch when not). Nothing here refers to
// go/ast or go/types, so a walkthrough resolver, a site or a tool can use
// facts read from the cache or from facts.json without loading a package,
// and without importing the loader.
//
// The rules: how a go doc style symbol name splits into import path and
// member (SplitSymbol, SymbolPackage, ShortSymbol), where a package sits in
// the repository layout (PackageDir, SymbolDir, Component), which lines of
// a declaration a reference's regular expression selects (LineSpan,
// MatchLines), and how facts.json is written (WriteJSON; WriteCompactJSON,
// the form a site offers, its call graph with a symbol table) and read
// (ReadJSON, either form).
//
//	f := res.Facts() // an *analyzer.Result's
//	for _, w := range f.Writes {
//		fmt.Printf("%s %s in %s (%s:%d)\n", w.Verb, w.Resource.Resource,
//			fact.ShortSymbol(w.Caller.Symbol), w.At.Path, w.At.StartLine)
//		// create replicasets in deployment.DeploymentController.getNewReplicaSet (pkg/controller/deployment/sync.go:…)
//	}
//	err := f.WriteJSON(out) // facts.json
//
// analyzer's ExampleAnalyze prints such lines for a small tree.
package fact
