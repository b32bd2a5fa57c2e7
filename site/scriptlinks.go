package site

import "github.com/kubewalk/kubewalk/site/internal/scriptlinks"

// ScriptLinks lists the links the data script at site path p of the site
// built into root holds, each as the page it is followed from and its
// URL, for a link checker to follow as it follows a page's: a search
// index's entries, relative to each search page that shows them, and the
// step and source pages of explain's data, relative to each explain page
// that loads it (package scriptlinks). ok is false when p is none of
// these scripts; errs are what cannot be read of it, one message each.
func ScriptLinks(root, p string) (links [][2]string, ok bool, errs []error) {
	return scriptlinks.Links(root, p)
}
