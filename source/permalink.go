package source

import "fmt"

// Permalink returns the GitHub URL of lines from..to of path at tag. A zero
// from links the whole file; to <= from links a single line.
func Permalink(tag, path string, from, to int) string {
	u := Repository + "/blob/" + tag + "/" + path
	switch {
	case from <= 0:
		return u
	case to <= from:
		return fmt.Sprintf("%s#L%d", u, from)
	default:
		return fmt.Sprintf("%s#L%d-L%d", u, from, to)
	}
}
