package trace

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// Note is one generated sentence of a trace or a controller view: why a
// watcher was not followed, what could not be connected. ID names its
// wording — NoteText[ID] in English; a site in another language looks the
// ID up in its own string table — and Args fill its %s in order.
type Note struct {
	ID   string   `json:"id"`
	Args []string `json:"args,omitempty"`
}

// NoteText is the English wording of each Note ID, a format whose verbs
// are all %s.
var NoteText = map[string]string{
	"ancestor":          "already on the path above (a feedback loop: it watches what it or its owner wrote)",
	"after-binding":     "its field selector spec.nodeName matches the object only once it is bound to this node",
	"depth":             "not followed: --depth %s reached",
	"seen":              "expanded above",
	"other-handler":     "no %s handler; showing the %s handler",
	"nothing":           "nothing to follow: neither a handler nor a sync function is known",
	"secondary":         "its sync works on %s (%s names it); this watch only enqueues related objects",
	"secondary-unknown": "which of the resources it watches (%s) its sync works on is not told by %s",
	"raw-reflector":     "a raw reflector: its store hands objects on through a channel or callback, which call edges do not follow",

	"no-watcher":      "no watcher of %s found in the analysed roots (informers with an untold resource, dynamic informers and controllers outside the roots are not seen)",
	"unknown-lw":      "%s raw list-watches could not be matched to a resource (the analyzer could not tell the list-watch's resource): %s",
	"handler-dynamic": "handler: not resolved statically (%s)",
	"no-sync":         "queue → sync: no sync-handler wiring or Run method found for the handler's type; its writes are searched from the handler itself",
	"sync-by-name":    "queue → sync: %s has no sync-handler field; the sync function was found by name on the worker loop's path %s",
	"sync-from-run":   "queue → sync: %s has no sync-handler field and its worker loop calls no sync… method; its writes are searched from %s",
	"no-queue":        "handler → queue: no work queue field found on %s",
	"queue-by-field":  "handler → queue: assumed through the func field %s (wired at %s); calls through func fields are not call edges",
	"no-queue-path":   "handler → queue: no call path from the handler to an enqueuer of %s within %s calls",
	"no-reflector":    "reflector: no cache.NewReflector call found in the list-watch's function or the functions it calls",
	"reflector-push":  "reflector → consumer: the store's push function hands objects on (the kubelet's sends them to a channel); what reads them is not connected by call edges",
	"no-write":        "sync → write: no API write within %s calls of %s",

	"no-constructor":  "no constructor of a controller package found in %s",
	"outside":         "the facts hold no handler registration or sync wiring in %s: its code lies outside the analysed packages",
	"no-registration": "no informer handler registration reached from %s or the Run method of what it builds within %s calls, in %s (informers read only through listers are not registrations)",
	"no-sync-wiring":  "no sync wiring or Run method found for %s",
}

// Diagnostic reports whether the note is about the analysis rather than
// the chain (list-watches whose resource the analyzer could not tell): a
// maintainer's line for `kubewalk trace`, which pages for readers leave out.
func (n Note) Diagnostic() bool { return n.ID == "unknown-lw" }

// note makes a Note, each argument printed with %v.
func note(id string, args ...any) Note {
	n := Note{ID: id}
	for _, a := range args {
		switch a := a.(type) {
		case string:
			n.Args = append(n.Args, a)
		case int:
			n.Args = append(n.Args, strconv.Itoa(a))
		default:
			n.Args = append(n.Args, fmt.Sprint(a))
		}
	}
	return n
}

// Format fills format's %s with the note's arguments: NoteText[n.ID] for
// String, a translation for a site.
func (n Note) Format(format string) string {
	args := make([]any, len(n.Args))
	for i, a := range n.Args {
		args[i] = a
	}
	return fmt.Sprintf(format, args...)
}

// String is the note in English.
func (n Note) String() string {
	if f, ok := NoteText[n.ID]; ok {
		return n.Format(f)
	}
	return n.ID
}

// IsZero reports whether n is no note.
func (n Note) IsZero() bool { return n.ID == "" }

// MarshalJSON writes the note with its English text beside its ID and
// arguments, so that `kubewalk trace -o json` reads without the table.
func (n Note) MarshalJSON() ([]byte, error) {
	type plain Note
	return json.Marshal(struct {
		plain
		Text string `json:"text"`
	}{plain(n), n.String()})
}
