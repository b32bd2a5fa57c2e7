package source

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/mod/semver"
)

// Releases lists the releases (no pre-releases) of k8s.io/kubernetes the
// module proxy serves, oldest first, through `go list -m -versions` with
// opts' environment.
func Releases(ctx context.Context, opts Options) ([]string, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "kubewalk-versions-")
	if err != nil {
		return nil, fmt.Errorf("list releases: %w", err)
	}
	defer os.RemoveAll(dir)
	out, stderr, err := runGo(ctx, opts, dir, "list", "-m", "-json", "-versions", kubernetesModule)
	if err != nil {
		return nil, fmt.Errorf("module proxy: %w: listing the releases of %s: %s: check GOPROXY and the network", ErrUnreachable, kubernetesModule, firstLine(stderr))
	}
	var m struct{ Versions []string }
	if err := json.Unmarshal(out, &m); err != nil {
		return nil, fmt.Errorf("module proxy: listing the releases of %s: %w", kubernetesModule, err)
	}
	var rels []string
	for _, v := range m.Versions {
		if checkTag(v) == nil && semver.Prerelease(v) == "" {
			rels = append(rels, v)
		}
	}
	semver.Sort(rels)
	return slices.Compact(rels), nil
}

// ExpandRange turns a range of minor releases, "v1.29..v1.37", into the
// latest patch of each minor release in it (both ends included) among
// releases. An end may be a minor release (v1.29) or a release (v1.29.6,
// read as its minor). A minor release with no release in the list is left
// out; a range that selects none is an error.
func ExpandRange(spec string, releases []string) ([]string, error) {
	from, to, ok := strings.Cut(spec, "..")
	if !ok {
		return nil, fmt.Errorf("%q: %w: want a range of minor releases like v1.29..v1.37", spec, ErrInvalidTag)
	}
	lo, err := minorOf(from)
	if err != nil {
		return nil, fmt.Errorf("%q: %w", spec, err)
	}
	hi, err := minorOf(to)
	if err != nil {
		return nil, fmt.Errorf("%q: %w", spec, err)
	}
	if hi < lo {
		return nil, fmt.Errorf("%q: %w: the range ends before it starts", spec, ErrInvalidTag)
	}
	latest := map[int]string{}
	for _, r := range releases {
		m, err := minorOf(r)
		if err != nil || semver.Prerelease(r) != "" || m < lo || m > hi {
			continue
		}
		if cur, ok := latest[m]; !ok || semver.Compare(r, cur) > 0 {
			latest[m] = r
		}
	}
	var out []string
	for m := lo; m <= hi; m++ {
		if r, ok := latest[m]; ok {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%q: %w: no release in that range", spec, ErrTagNotFound)
	}
	return out, nil
}

// minorOf returns the minor version of "v1.29" or "v1.29.6".
func minorOf(v string) (int, error) {
	if semver.Major(v) != "v1" {
		return 0, fmt.Errorf("%w: %q is not v1.N or v1.N.P", ErrInvalidTag, v)
	}
	parts := strings.Split(strings.TrimPrefix(semver.MajorMinor(v), "v1."), ".")
	n, err := strconv.Atoi(parts[0])
	if err != nil {
		return 0, fmt.Errorf("%w: %q is not v1.N or v1.N.P", ErrInvalidTag, v)
	}
	return n, nil
}
