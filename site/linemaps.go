package site

import (
	"context"
	"maps"
	"reflect"
	"slices"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// alignLinked gives the files the releases' facts locate code in but no
// release renders (a gate's declaration in kube_features.go, a call in a
// package outside the roots) an alignment of their lines, as a shared
// source page's (merge): the pages the releases share print a location
// there, a GitHub permalink, by its stable lines, marked (lines.go), so
// releases that agree on the code print it the same, and each release's
// line map (lines.js) carries the file for site.js to print its own. A
// file is aligned across the releases whose trees have it, two or more;
// files are those with source pages, left alone.
func (set *releaseSet) alignLinked(ctx context.Context, bs []*builder) error {
	linked := map[string]bool{}
	for _, b := range bs {
		factPaths(reflect.ValueOf(b.in.Facts), linked)
		factPaths(reflect.ValueOf(b.in.Traces), linked)
	}
	return set.src.AlignLinked(ctx, slices.Sorted(maps.Keys(linked)), len(bs), func(r int, f string) ([]byte, error) { return bs[r].in.ReadFile(f) })
}

var (
	// locationType is fact.Location's type, which factPaths looks for.
	locationType = reflect.TypeFor[fact.Location]()
	// callsType is the call graph's, which no page prints but traces
	// (whose hops factPaths finds in the traces) and is most of the
	// files: factPaths skips it.
	callsType = reflect.TypeFor[[]fact.Call]()
)

// factPaths adds to paths the path of every fact.Location in v (facts,
// traces), walked through structs, pointers, slices and maps, but for
// the call graph.
func factPaths(v reflect.Value, paths map[string]bool) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			factPaths(v.Elem(), paths)
		}
	case reflect.Struct:
		if v.Type() == locationType {
			paths[v.Interface().(fact.Location).Path] = true
			return
		}
		for i := range v.NumField() {
			if sf := v.Type().Field(i); sf.IsExported() && sf.Type != callsType {
				factPaths(v.Field(i), paths)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			factPaths(v.Index(i), paths)
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			factPaths(it.Value(), paths)
		}
	}
}
