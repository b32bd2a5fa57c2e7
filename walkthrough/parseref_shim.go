package walkthrough

// TEMPORARY: analyzer.ParseRef and *analyzer.NotFoundError are being written
// in parallel. Until they land this file stands in for them; when they do,
// replace the bodies with
//
//	var parseRef = analyzer.ParseRef
//	func notFound(err error) []string { var nf *analyzer.NotFoundError; if errors.As(err, &nf) { return nf.Suggestions }; return nil }

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer"
)

// parseRef parses ALT [| ALT]* [/REGEXP/].
var parseRef = func(s string) (analyzer.Ref, error) {
	s = strings.TrimSpace(s)
	var ref analyzer.Ref
	if loc := regexp.MustCompile(`(^|\s)/`).FindStringIndex(s); loc != nil {
		i := loc[1] - 1
		re := s[i:]
		if len(re) < 2 || !strings.HasSuffix(re, "/") {
			return ref, fmt.Errorf("unterminated /regexp/ in %q", s)
		}
		ref.Lines = re[1 : len(re)-1]
		if _, err := regexp.Compile(ref.Lines); err != nil {
			return ref, fmt.Errorf("bad regexp: %v", err)
		}
		s = strings.TrimSpace(s[:i])
	}
	base := ""
	for k, alt := range strings.Split(s, "|") {
		alt = strings.TrimSpace(alt)
		if alt == "" || strings.ContainsAny(alt, " \t") {
			return ref, fmt.Errorf("bad reference %q", s)
		}
		if k == 0 {
			if strings.HasPrefix(alt, ".") {
				return ref, fmt.Errorf("first alternate %q must be a full name", alt)
			}
			slash := strings.LastIndex(alt, "/")
			dot := strings.Index(alt[slash+1:], ".")
			if dot < 0 {
				return ref, fmt.Errorf("reference %q names no symbol (want importpath.Name)", alt)
			}
			base = alt[:slash+1+dot]
		} else if strings.HasPrefix(alt, ".") {
			alt = base + alt
		}
		ref.Alternates = append(ref.Alternates, alt)
	}
	return ref, nil
}

// suggestionsOf returns the suggestions of a not-found error.
func suggestionsOf(err error) []string {
	var s interface{ SuggestionList() []string }
	_ = s
	return nil
}
