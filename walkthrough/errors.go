package walkthrough

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Error is a problem in a walkthrough file, at a position editors can jump
// to. Every error Parse, Load, Check and Refs report about the Markdown is
// an *Error (joined with errors.Join when there are several).
type Error struct {
	// File is the file's name as given to Parse, or dir/name for Load.
	File string
	// Line and Col are 1-based; Col is a byte column and 0 when only the
	// line is known.
	Line, Col int
	Msg       string
	// Suggestions are the nearest existing names for a reference that did
	// not resolve, best first.
	Suggestions []string
	// Err is the underlying error, if any (a *fact.NotFoundError for
	// an unresolved reference), for errors.As.
	Err error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Col > 0 {
			fmt.Fprintf(&b, ":%d", e.Col)
		}
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	if len(e.Suggestions) > 0 {
		fmt.Fprintf(&b, " (did you mean %s?)", strings.Join(e.Suggestions, ", "))
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// errorList collects the problems of one file in the order found.
type errorList []*Error

func (l *errorList) add(file string, line, col int, format string, args ...any) {
	*l = append(*l, &Error{File: file, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)})
}

// sortErrors orders errors by file, line and column so reports are
// deterministic whatever order checks ran in; errors that are not *Error
// go last, in their original order.
func sortErrors(errs []error) {
	slices.SortStableFunc(errs, func(a, b error) int {
		var ea, eb *Error
		okA, okB := errors.As(a, &ea), errors.As(b, &eb)
		switch {
		case !okA && !okB:
			return 0
		case !okA:
			return 1
		case !okB:
			return -1
		}
		return cmp.Or(cmp.Compare(ea.File, eb.File), cmp.Compare(ea.Line, eb.Line), cmp.Compare(ea.Col, eb.Col))
	})
}

func (l errorList) err() error {
	if len(l) == 0 {
		return nil
	}
	errs := make([]error, len(l))
	for i, e := range l {
		errs[i] = e
	}
	sortErrors(errs)
	return errors.Join(errs...)
}
