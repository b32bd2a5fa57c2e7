package analyzer

// Ref is a parsed symbol reference, as walkthroughs write it (see ParseRef):
//
//	k8s.io/kubernetes/pkg/scheduler.Scheduler.ScheduleOne | .Scheduler.scheduleOne /sched\.bind/
//
// The first alternate that exists at the tree's tag wins; an alternate that
// starts with "." is relative to the first alternate's import path.
type Ref struct {
	// Alternates are full names, "importpath.Name" or
	// "importpath.Type.Method", in order of preference.
	Alternates []string `json:"alternates"`
	// Lines, when not "", is a regular expression (RE2) matched against each
	// line of the declaration to narrow the reference to those lines.
	Lines string `json:"lines,omitempty"`
}

// Resolved is a reference resolved at one tag.
type Resolved struct {
	Symbol Symbol `json:"symbol"`
	// Alternate is the index in Ref.Alternates of the name that resolved.
	Alternate int `json:"alternate"`
	// Matched lists the lines of the declaration that Ref.Lines matched, in
	// order; nil when Ref.Lines is "".
	Matched []int `json:"matched,omitempty"`
}
