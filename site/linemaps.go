package site

import (
	"context"
	"errors"
	"io/fs"
	"maps"
	"reflect"
	"runtime"
	"slices"

	"golang.org/x/sync/errgroup"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/site/internal/linemap"
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
func (set *releaseSet) alignLinked(ctx context.Context, bs []*builder, files map[string][]int) error {
	linked := map[string]bool{}
	for _, b := range bs {
		factPaths(reflect.ValueOf(b.in.Facts), linked)
		factPaths(reflect.ValueOf(b.in.Traces), linked)
	}
	var ms []*mergedSrc
	for _, f := range slices.Sorted(maps.Keys(linked)) {
		if _, ok := files[f]; !ok && f != "" {
			ms = append(ms, &mergedSrc{file: f})
		}
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(runtime.GOMAXPROCS(0))
	for _, m := range ms {
		g.Go(func() error {
			if err := gctx.Err(); err != nil {
				return err
			}
			var copies [][]string
			for r, b := range bs {
				src, err := b.in.ReadFile(m.file)
				if errors.Is(err, fs.ErrNotExist) {
					continue
				}
				if err != nil {
					return err
				}
				m.rels = append(m.rels, r)
				copies = append(copies, linemap.TextLines(src))
				m.lines = append(m.lines, len(copies[len(copies)-1]))
			}
			if len(copies) < 2 {
				m.rels = nil
				return nil
			}
			masks, at := linemap.Align(copies)
			m.ids, m.at, m.all = linemap.Anchors(masks), at, 1<<len(m.rels)-1
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	for _, m := range ms {
		if m.rels != nil {
			set.merged[m.file] = m
		}
	}
	return nil
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
