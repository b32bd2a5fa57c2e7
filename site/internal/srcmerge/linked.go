package srcmerge

import (
	"maps"
	"reflect"
	"slices"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// Linked are the files every fact.Location in vs locates code in (the
// releases' facts and traces, as site.Input has them), sorted: those
// AlignLinked aligns when no release renders them.
func Linked(vs ...any) []string {
	paths := map[string]bool{}
	for _, v := range vs {
		factPaths(reflect.ValueOf(v), paths)
	}
	return slices.Sorted(maps.Keys(paths))
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
