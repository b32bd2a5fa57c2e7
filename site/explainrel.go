package site

// The explain pages' data in a multi-release site: what the releases'
// explain scripts share, written once by package explainshare (whose
// comment says how), from the scripts each release wrote.

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/kubewalk/kubewalk/site/internal/explainshare"
	"github.com/kubewalk/kubewalk/site/internal/jsdata"
)

// shareExplain rewrites the explain scripts of the multi-release site in
// dir, whose releases' builders are bs (newest first), as package
// explainshare says, and adds the change in bytes to st.
func shareExplain(dir string, bs []*builder, st *Stats) error {
	var copies []*explainshare.Copy
	var views []*explainshare.View
	before := int64(0)
	read := func(p, global string, v any) error {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
		if err != nil {
			return err
		}
		before += int64(len(data))
		if err := jsdata.Read(global, data, v); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		return nil
	}
	for _, b := range bs {
		x, err := b.explainIndexes()
		if err != nil {
			return err
		}
		for _, lb := range langsOf(b) {
			p := ReleaseDir(b.in.Tag) + lb.full(explainIndexJS)
			if x.shared {
				p = ReleaseDir(b.in.Tag) + explainIndexJS
			}
			if len(copies) == 0 || copies[len(copies)-1].Path != p {
				var idx map[string]any
				if err := read(p, "kubewalkExplain", &idx); err != nil {
					return err
				}
				c, err := explainshare.NewCopy(p, b.in.Tag, idx)
				if err != nil {
					return err
				}
				copies = append(copies, c)
			}
			v := &explainshare.View{Tag: b.in.Tag, Lang: lb.langDir, Steps: ReleaseDir(b.in.Tag) + lb.full(explainStepsJS)}
			if err := read(v.Steps, "kubewalkExplainSteps", &v.Data); err != nil {
				return err
			}
			views = append(views, v)
		}
	}
	shared, owns, steps, err := explainshare.Encode(copies, views)
	if err != nil {
		return err
	}
	files := map[string]any{explainshare.SharedJS: shared}
	globals := map[string]string{explainshare.SharedJS: "kubewalkExplainShared"}
	for i, c := range copies {
		files[c.Path], globals[c.Path] = owns[i], "kubewalkExplain"
	}
	for lang, s := range steps {
		files[lang+explainshare.StepsSharedJS], globals[lang+explainshare.StepsSharedJS] = s, "kubewalkExplainStepsShared"
	}
	for _, v := range views {
		if err := os.Remove(filepath.Join(dir, filepath.FromSlash(v.Steps))); err != nil {
			return err
		}
	}
	after := int64(0)
	for p, v := range files {
		data, err := jsdata.Assign(globals[p], v)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(p)), data, 0o644); err != nil {
			return err
		}
		after += int64(len(data))
	}
	st.Bytes += after - before
	return nil
}
