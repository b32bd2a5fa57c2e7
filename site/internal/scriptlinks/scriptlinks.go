// Package scriptlinks lists the links a built site's data scripts hold
// — the search indexes and explain's data, which a page loads as script
// rather than links — for internal/linkcheck to follow as it follows a
// page's (package site's ScriptLinks). Each script is read with the
// decoder of its format, beside its encoder (searchindex, searchshare,
// explainshare).
package scriptlinks

import (
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"

	"github.com/kubewalk/kubewalk/internal/derive/explain"
	"github.com/kubewalk/kubewalk/site/internal/explainshare"
	"github.com/kubewalk/kubewalk/site/internal/jsdata"
	"github.com/kubewalk/kubewalk/site/internal/searchindex"
	"github.com/kubewalk/kubewalk/site/internal/searchshare"
)

// Links lists the links the data script at site path p of the site
// built into root holds, each as the page it is followed from and its
// URL, for a link checker to follow as it follows a page's: a search
// index's entries (searchindex.IsIndex), relative to each search page that
// shows them, and the step and source pages of explain's data, relative
// to each explain page that loads it. ok is false when p is none of
// these scripts; errs are what cannot be read of it, one message each.
func Links(root, p string) (links [][2]string, ok bool, errs []error) {
	read := func() ([]byte, bool) {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			errs = append(errs, err)
		}
		return data, err == nil
	}
	var err error
	switch base := path.Base(p); {
	case searchindex.IsIndex(p):
		data, ok := read()
		if !ok {
			return nil, true, errs
		}
		links, errs = searchScriptLinks(p, data)
	case base == explainshare.StepsJS:
		if data, ok := read(); ok {
			links, err = explainStepsLinks(p, data)
		}
	case base == explainshare.IndexJS:
		if data, ok := read(); ok {
			links, err = explainIndexLinks(root, p, data)
		}
	case base == explainshare.StepsSharedJS:
		if data, ok := read(); ok {
			links, err = explainSharedStepsLinks(p, data)
		}
	default:
		return nil, false, nil
	}
	if err != nil {
		errs = append(errs, err)
	}
	return links, true, errs
}

// explainStepsLinks are the step pages of the explain-steps.js at site
// path p, relative to the explain page beside it.
func explainStepsLinks(p string, data []byte) ([][2]string, error) {
	var steps []explain.IndexStep
	if err := jsdata.Read("kubewalkExplainSteps", data, &steps); err != nil {
		return nil, err
	}
	var links [][2]string
	for _, s := range steps {
		links = append(links, [2]string{path.Join(path.Dir(p), explainshare.Page), s.Page})
	}
	return links, nil
}

// explainIndexLinks are the source pages of the call sites of the
// explain-index.js at site path p (in a multi-release site, with what it
// names of explain-shared.js: explainshare.Share), relative to each explain
// page that loads it: beside it, or in a language directory under it.
func explainIndexLinks(root, p string, data []byte) ([][2]string, error) {
	shared := func() ([]byte, error) { return os.ReadFile(filepath.Join(root, explainshare.SharedJS)) }
	idx, err := explainshare.ParseIndex(data, shared)
	if err != nil {
		return nil, err
	}
	var sites []explain.IndexSite
	for _, e := range idx.Events {
		sites = append(sites, e.IndexSite)
	}
	for _, w := range idx.Writes {
		sites = append(sites, w.IndexSite)
	}
	for _, h := range idx.Handlers {
		sites = append(sites, h.IndexSite)
	}
	dir := path.Dir(p)
	var pages []string
	if isFile(root, path.Join(dir, explainshare.Page)) {
		pages = append(pages, path.Join(dir, explainshare.Page))
	}
	es, _ := os.ReadDir(filepath.Join(root, filepath.FromSlash(dir)))
	for _, e := range es {
		if pg := path.Join(dir, e.Name(), explainshare.Page); e.IsDir() && isFile(root, pg) {
			pages = append(pages, pg)
		}
	}
	var links [][2]string
	for _, pg := range pages {
		for _, s := range sites {
			if s.Page != "" {
				links = append(links, [2]string{pg, s.Page})
			}
		}
	}
	return links, nil
}

// isFile reports whether site path p of the site in root is a file.
func isFile(root, p string) bool {
	st, err := os.Stat(filepath.Join(root, filepath.FromSlash(p)))
	return err == nil && st.Mode().IsRegular()
}

// explainSharedStepsLinks are the step pages of the
// explain-steps-shared.js at site path p, relative to the explain page
// of each release that has them, in the language directory of p.
func explainSharedStepsLinks(p string, data []byte) ([][2]string, error) {
	byTag, err := explainshare.ParseSharedSteps(data)
	if err != nil {
		return nil, err
	}
	var links [][2]string
	for _, tag := range slices.Sorted(maps.Keys(byTag)) {
		for _, s := range byTag[tag] {
			links = append(links, [2]string{path.Join(tag, path.Dir(p), explainshare.Page), s.Page})
		}
	}
	return links, nil
}

// searchScriptLinks are the URLs of the search script at site path p
// (searchindex.IsIndex): a release's, relative to the search page beside it; a
// multi-release site's, relative to each search page of every release
// that has the entry (searchshare.Links).
func searchScriptLinks(p string, data []byte) ([][2]string, []error) {
	d, err := searchindex.Parse(data)
	if err != nil {
		return nil, []error{err}
	}
	var errs []error
	for _, e := range d.Docs {
		if len(e) != 4 {
			errs = append(errs, fmt.Errorf("entry %q: want kind, title, URL, detail", e))
		}
	}
	links, err := searchshare.Links(p, d)
	if err != nil {
		errs = append(errs, err)
	}
	return links, errs
}
