package site

// tuning are what a test of a site of several releases may change of how
// it is built, beside what it shows: PrepareReleases builds with the zero
// tuning, tests call prepareReleases (through buildReleases). None of it is an Options field, so a
// caller of the package sees none of it.
type tuning struct {
	// explicitHeaders writes every release's header on a shared source
	// page, none made by site.js (srcmerge.LikeNewest): for the test that the
	// two agree.
	explicitHeaders bool
	// partBudget, when set, is the most code a part of a shared source
	// page carries (partBudget), for tests of pages in parts.
	partBudget int
	// ownReleasePages leaves every release's pages in its subtree (no
	// shareReleasePages), for tests that compare a shared page with the
	// release's own.
	ownReleasePages bool
	// relPageBudget, when set, is the most a page shared by releases may
	// weigh (relPageBudget), for tests.
	relPageBudget int
}
