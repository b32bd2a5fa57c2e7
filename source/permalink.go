package source

import (
	"fmt"
	"net/url"
	"strings"
)

// Permalink returns the GitHub URL of lines from..to of path at tag. A zero
// from links the whole file; to <= from links a single line. Each path
// segment is escaped, so a file name with "#", "?" or "%" still names the
// file.
func Permalink(tag, path string, from, to int) string {
	segs := strings.Split(path, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	u := Repository + "/blob/" + url.PathEscape(tag) + "/" + strings.Join(segs, "/")
	switch {
	case from <= 0:
		return u
	case to <= from:
		return fmt.Sprintf("%s#L%d", u, from)
	default:
		return fmt.Sprintf("%s#L%d-L%d", u, from, to)
	}
}
