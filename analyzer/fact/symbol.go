package fact

// Symbol is one declaration in a package of the tree: every package-level
// func, method, type, var and const of every loaded package whose files lie
// inside the tree (roots and their in-tree dependencies), so walkthroughs
// can reference any of them by name.
type Symbol struct {
	// Name is go doc style: "k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.getNewReplicaSet".
	Name string `json:"name"`
	// Kind is "func", "method", "type", "var" or "const".
	Kind string `json:"kind"`
	// Decl spans the declaration from its doc comment's first line (when it
	// has one) to its last line.
	Decl Location `json:"decl"`
	// Body spans a func or method body's braces; zero otherwise.
	Body Location `json:"body"`
}

// Ident is one identifier occurrence in a root file, for source pages: the
// site highlights Go with go/scanner and links each identifier through these.
type Ident struct {
	// Off is the byte offset of the identifier in the file; Len its length.
	Off int `json:"off"`
	Len int `json:"len"`
	// Kind is the object's kind, for semantic highlighting: "func",
	// "method", "type", "var", "const", "field", "pkg", "label", "builtin".
	Kind string `json:"kind"`
	// Def is true where the identifier declares the object.
	Def bool `json:"def,omitempty"`
	// Target is where the object is declared (one line), zero when it is
	// outside the tree (the standard library, a third-party module).
	Target Location `json:"target"`
}

// FileXref is the identifier table of one root file.
type FileXref struct {
	Path   string  `json:"path"`
	Idents []Ident `json:"idents"` // sorted by Off
}
