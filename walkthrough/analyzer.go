package walkthrough

import (
	"errors"

	"github.com/kubewalk/kubewalk/analyzer"
)

// parseRef parses a reference in the analyzer's grammar
// (ALT [| ALT]* [/REGEXP/]); a variable so tests can count calls.
var parseRef = analyzer.ParseRef

// suggestionsOf returns the nearest existing names a not-found error
// carries.
func suggestionsOf(err error) []string {
	if nf, ok := errors.AsType[*analyzer.NotFoundError](err); ok {
		return nf.Suggestions
	}
	return nil
}
