package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/kubewalk/kubewalk/site"
	"github.com/kubewalk/kubewalk/walkthrough"
)

// Docs loads and resolves the walkthroughs of every set in lang against
// rel. A user walkthrough with the ID of a built-in one replaces it.
func Docs(rel *Release, sets []WalkSet, lang string, symbolURL walkthrough.Options) ([]*walkthrough.Doc, error) {
	byID := map[string]int{}
	var docs []*walkthrough.Doc
	for _, s := range sets {
		opts := symbolURL
		opts.Resolver = rel.Result
		ds, err := walkthrough.Load(s.FS, s.Dir, lang, opts)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.Name, err)
		}
		for _, d := range ds {
			if i, ok := byID[d.ID]; ok {
				docs[i] = d
				continue
			}
			byID[d.ID] = len(docs)
			docs = append(docs, d)
		}
	}
	return docs, nil
}

// Build renders the site for rel into out.
func Build(ctx context.Context, rel *Release, sets []WalkSet, lang, out string, logf func(string, ...any)) (site.Stats, error) {
	wopts := walkthrough.Options{
		SymbolURL: site.SymbolURL,
		Permalink: rel.Tree.Permalink,
	}
	docs, err := Docs(rel, sets, lang, wopts)
	if err != nil {
		return site.Stats{}, err
	}
	res := rel.Result
	in := site.Input{
		Tag:     rel.Tree.Tag,
		Commit:  rel.Tree.Commit,
		Backend: rel.Tree.Backend,
		Lang:    lang,
		Facts:   res.Facts(),
		Symbols: res.Symbols,
		Xrefs:   res.Xrefs,
		Docs:    docs,
		ReadFile: func(path string) ([]byte, error) {
			return os.ReadFile(filepath.Join(rel.Tree.Dir, filepath.FromSlash(path)))
		},
	}
	return site.Build(ctx, in, site.Options{
		Out:       out,
		SourceURL: rel.Tree.Permalink,
		Logf:      logf,
	})
}
