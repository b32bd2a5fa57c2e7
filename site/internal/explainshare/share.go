package explainshare

// The pass over a site's files: the explain scripts its releases wrote,
// Encode run over them, what it returns written in their place.

import (
	"fmt"

	"github.com/kubewalk/kubewalk/site/internal/jsdata"
	"github.com/kubewalk/kubewalk/site/internal/sitetree"
)

// Script is one explain page's scripts as a release of the site wrote
// them (package site's Prepared.ExplainScripts lists them).
type Script struct {
	// Tag is the release's, Lang the page's language directory ("ko/",
	// "" in a site of one language).
	Tag, Lang string
	// Index is the site path of the release's explain-index.js for the
	// page (one for every language of a release whose languages' are the
	// same bytes: consecutive Scripts then name the same Index), Steps of
	// the page's explain-steps.js.
	Index, Steps string
}

// Share rewrites the explain scripts of the site t, the scripts newest
// release first, as the package comment says, and returns the change in
// bytes.
func Share(t *sitetree.Tree, scripts []Script) (int64, error) {
	var copies []*Copy
	var views []*View
	before := int64(0)
	read := func(p, global string, v any) error {
		data, err := t.ReadFile(p)
		if err != nil {
			return err
		}
		before += int64(len(data))
		if err := jsdata.Read(global, data, v); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		return nil
	}
	for _, s := range scripts {
		if len(copies) == 0 || copies[len(copies)-1].Path != s.Index {
			var idx map[string]any
			if err := read(s.Index, "kubewalkExplain", &idx); err != nil {
				return 0, err
			}
			c, err := NewCopy(s.Index, s.Tag, idx)
			if err != nil {
				return 0, err
			}
			copies = append(copies, c)
		}
		v := &View{Tag: s.Tag, Lang: s.Lang, Steps: s.Steps}
		if err := read(v.Steps, "kubewalkExplainSteps", &v.Data); err != nil {
			return 0, err
		}
		views = append(views, v)
	}
	shared, owns, steps, err := Encode(copies, views)
	if err != nil {
		return 0, err
	}
	files := map[string]any{SharedJS: shared}
	globals := map[string]string{SharedJS: "kubewalkExplainShared"}
	for i, c := range copies {
		files[c.Path], globals[c.Path] = owns[i], "kubewalkExplain"
	}
	for lang, s := range steps {
		files[lang+StepsSharedJS], globals[lang+StepsSharedJS] = s, "kubewalkExplainStepsShared"
	}
	for _, v := range views {
		if err := t.Remove(v.Steps); err != nil {
			return 0, err
		}
	}
	after := int64(0)
	for p, v := range files {
		data, err := jsdata.Assign(globals[p], v)
		if err != nil {
			return 0, err
		}
		if err := t.Put(p, data); err != nil {
			return 0, err
		}
		after += int64(len(data))
	}
	return after - before, nil
}
