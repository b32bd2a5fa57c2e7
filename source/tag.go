package source

import (
	"fmt"
	"slices"
	"strings"

	"golang.org/x/mod/semver"
)

// checkTag reports whether tag is a Kubernetes release tag: canonical
// semantic version, major 1, no build metadata. Pre-releases pass.
func checkTag(tag string) error {
	if !semver.IsValid(tag) || semver.Canonical(tag) != tag || semver.Major(tag) != "v1" {
		return fmt.Errorf("tag %q: %w: want a release tag like %s", tag, ErrInvalidTag, DefaultTag)
	}
	return nil
}

// stagingVersion is the version the staging modules are published at for a
// Kubernetes tag: v1.36.3 → v0.36.3, v1.37.0-alpha.1 → v0.37.0-alpha.1.
func stagingVersion(tag string) string {
	return "v0" + strings.TrimPrefix(tag, "v1")
}

// nearest names the releases closest to tag among versions: the newest
// below it and the oldest above it, then the newest of all. Pre-releases
// are only suggested for a pre-release tag, since a reader who asked for a
// release wants a release.
func nearest(tag string, versions []string) []string {
	var vs []string
	for _, v := range versions {
		if checkTag(v) != nil || v == tag {
			continue
		}
		if semver.Prerelease(v) != "" && semver.Prerelease(tag) == "" {
			continue
		}
		vs = append(vs, v)
	}
	semver.Sort(vs)
	vs = slices.Compact(vs)
	if len(vs) == 0 {
		return nil
	}
	i, _ := slices.BinarySearchFunc(vs, tag, semver.Compare)
	var out []string
	if i > 0 {
		out = append(out, vs[i-1])
	}
	if i < len(vs) {
		out = append(out, vs[i])
	}
	if newest := vs[len(vs)-1]; !slices.Contains(out, newest) {
		out = append(out, newest)
	}
	return out
}

// tagNotFound is the one-line error for a tag that where (a remote, the
// proxy, a checkout) lacks, naming the nearest releases it has. todo says
// what to do besides picking one of them, or is empty.
func tagNotFound(tag, where string, versions []string, todo string) error {
	if todo != "" {
		todo = ", or " + todo
	}
	if n := nearest(tag, versions); len(n) > 0 {
		return fmt.Errorf("%s: %w: %s; nearest releases: %s (pass one with --tag%s)", where, ErrTagNotFound, tag, strings.Join(n, ", "), todo)
	}
	return fmt.Errorf("%s: %w: %s; it has no releases (check the source%s)", where, ErrTagNotFound, tag, todo)
}
