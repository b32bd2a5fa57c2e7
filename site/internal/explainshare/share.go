package explainshare

// The pass that writes a site's explain scripts: the releases', handed
// over as data, Encode run over them, what it returns written.

import (
	"fmt"
	"path"

	"github.com/kubewalk/kubewalk/internal/derive/explain"
	"github.com/kubewalk/kubewalk/site/internal/jsdata"
	"github.com/kubewalk/kubewalk/site/internal/sitetree"
)

// Script is one explain page's scripts as package site hands them over
// (Prepared.ExplainScripts).
type Script struct {
	// Tag is the release's, Lang the page's language directory ("ko/",
	// "" in a site of one language).
	Tag, Lang string
	// Index is the site path of the release's explain-index.js for the
	// page (one for every language of a release whose languages' are the
	// same bytes: consecutive Scripts then name the same Index), and
	// IndexData its Index (its steps are StepsData's); Steps is the site
	// path of the page's explain-steps.js, and StepsData its steps.
	Index     string
	IndexData *explain.Index
	Steps     string
	StepsData []explain.IndexStep
}

// Page is the site path of the explain page s's steps link from.
func (s *Script) Page() string { return path.Join(path.Dir(s.Steps), Page) }

// Links are the steps' links, to be moved in place.
func (s *Script) Links() []*string {
	links := make([]*string, len(s.StepsData))
	for i := range s.StepsData {
		links[i] = &s.StepsData[i].Page
	}
	return links
}

// Base is explain-index.js's value in a site of one release: the Index
// but for its steps, which are explain-steps.js's.
type Base struct {
	*explain.Index
	// Steps hides the Index's (encoding/json takes the shallower of two
	// fields of one name).
	Steps []explain.IndexStep `json:"steps,omitempty"`
}

// Share writes the explain scripts of a site's releases, scripts newest
// release first, into the site t, as the package comment says, and
// returns the bytes written.
func Share(t *sitetree.Tree, scripts []Script) (int64, error) {
	var copies []*Copy
	var views []*View
	for _, s := range scripts {
		if len(copies) == 0 || copies[len(copies)-1].Path != s.Index {
			var idx map[string]any
			if err := jsdata.Convert(Base{Index: s.IndexData}, &idx); err != nil {
				return 0, fmt.Errorf("%s: %w", s.Index, err)
			}
			c, err := NewCopy(s.Index, s.Tag, idx)
			if err != nil {
				return 0, err
			}
			copies = append(copies, c)
		}
		v := &View{Tag: s.Tag, Lang: s.Lang, Steps: s.Steps}
		if err := jsdata.Convert(s.StepsData, &v.Data); err != nil {
			return 0, fmt.Errorf("%s: %w", s.Steps, err)
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
	var n int64
	for p, v := range files {
		data, err := jsdata.Assign(globals[p], v)
		if err != nil {
			return 0, err
		}
		if err := t.Put(p, data); err != nil {
			return 0, err
		}
		n += int64(len(data))
	}
	return n, nil
}
