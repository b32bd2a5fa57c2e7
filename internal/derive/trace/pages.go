package trace

import (
	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// What a site's controller pages need of the controller views besides
// the views themselves: which controller's page describes a package
// (for the watchers of what a controller writes), and the code a page
// shows (for the walkthrough steps that cite any of it).

// Owners maps each package directory of the controllers of views to the
// first controller listing it.
func Owners(views []*ControllerView) map[string]string {
	owners := map[string]string{}
	for _, v := range views {
		for _, p := range v.Controller.Packages {
			if _, ok := owners[p]; !ok {
				owners[p] = v.Controller.Name
			}
		}
	}
	return owners
}

// Owner returns the controller owners (Owners) gives the directory dir
// or its nearest parent, "" when none: a watcher registered in a
// subpackage of a controller's is that controller's.
func Owner(owners map[string]string, dir string) string {
	for ; dir != ""; dir = parentDir(dir) {
		if name, ok := owners[dir]; ok {
			return name
		}
	}
	return ""
}

// Shown returns the places of the code a controller's page shows, in the
// page's order: each watch's registration and its add, update and delete
// handlers; each sync function, the first call site of each followed
// write and of each other write; each event.
func (v *ControllerView) Shown() []fact.Location {
	var out []fact.Location
	for _, w := range v.Watches {
		out = append(out, w.Registration.At)
		for _, h := range []*fact.Handler{w.Registration.Add, w.Registration.Update, w.Registration.Delete} {
			if h != nil {
				out = append(out, h.Decl)
			}
		}
	}
	for _, s := range v.Syncs {
		out = append(out, s.Sync.Decl)
		for _, wh := range s.Writes {
			if len(wh.Sites) > 0 {
				out = append(out, wh.Sites[0].Write.At)
			}
		}
		for _, o := range s.Other {
			out = append(out, o.First.Write.At)
		}
	}
	for _, e := range v.Events {
		out = append(out, e.At)
	}
	return out
}
