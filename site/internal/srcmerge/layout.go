package srcmerge

import "context"

// Renderer is what Layout needs of the releases' renderer (package site's
// Prepared): the files each release renders and their text, and, given
// the pages' layout, each release's rendering of their lines.
type Renderer interface {
	// Sources are the files each release renders, newest first.
	Sources() [][]string
	// ReadFile reads release rel's copy of file f.
	ReadFile(rel int, f string) ([]byte, error)
	// Unrender leaves unrendered the files drops names, per release.
	Unrender(drops [][]string) error
	// RenderLines files each release's rendering of every line of set's
	// pages (Src.File1), and keeps set to link into.
	RenderLines(ctx context.Context, set *Set) error
	// PartBudget is the most code a part of a page serving rels
	// releases carries.
	PartBudget(rels int) int
}

// Layout lays out the source pages the releases tags (newest first)
// share: it leaves unrendered the generated files an older release
// regenerated (Regenerated), aligns the copies of every file the
// releases still render (Align), has r render their lines into the Set,
// splits the pages into parts (Split), aligns the files only linked
// from facts (AlignLinked over Linked(facts...)) and lists the parts
// (List). The releases stage (package site/releases) runs it, and
// package site's tests as the stage does.
func Layout(ctx context.Context, r Renderer, tags []string, facts ...any) (*Set, error) {
	drops, err := Regenerated(tags, r.Sources(), r.ReadFile)
	if err != nil {
		return nil, err
	}
	if err := r.Unrender(drops); err != nil {
		return nil, err
	}
	files := map[string][]int{}
	for i, fs := range r.Sources() {
		for _, f := range fs {
			files[f] = append(files[f], i)
		}
	}
	set, err := Align(ctx, files, tags, r.ReadFile)
	if err != nil {
		return nil, err
	}
	if err := r.RenderLines(ctx, set); err != nil {
		return nil, err
	}
	set.Split(r.PartBudget)
	if err := set.AlignLinked(ctx, Linked(facts...), len(tags), r.ReadFile); err != nil {
		return nil, err
	}
	set.List()
	return set, nil
}
