package site

import (
	"path"
	"sync"

	"github.com/kubewalk/kubewalk/internal/derive/coverage"
)

// relBuild is what the builders of one release's languages share: the
// builders themselves, and what is made once for the release whatever the
// language, from its facts, recordings and symbols. A site of one
// language has one builder, its release's only one.
type relBuild struct {
	// langs are the release's builders, one per language in Input.Langs's
	// order; the first renders the pages the languages share.
	langs []*builder

	// factsFile is facts.json.zst (factsFileData).
	factsFile func() ([]byte, error)
	// coverage is the recordings' coverage, nil without a recording that
	// has coverage.
	coverage func() *covScenarios
	// symDirs are the positions in Input.Symbols of the symbols declared
	// in each directory (symbolsIn).
	symDirs func() map[string][]int
	// controllers is the controller pages' data; nil when the facts have
	// no controllers or plugins.
	controllers func() *controllerData

	// explainIdx and searchIdx are the release's explain and search
	// scripts, made once for all its languages (explain.go, search.go).
	explainIdx explainIndexes
	searchIdx  searchIndexes
}

// newRelBuild is the build of b's release, b its first language's
// builder: each thing is made on first use, from b's input.
func newRelBuild(b *builder) *relBuild {
	r := &relBuild{
		langs:     []*builder{b},
		factsFile: sync.OnceValues(b.encodeFactsFile),
		coverage: sync.OnceValue(func() *covScenarios {
			scenarios := func() *covScenarios { return coverage.NewScenarios(b.in.Recordings, panelScenario) }
			if b.reuse == nil {
				return scenarios()
			}
			return b.reuse.coverage.Keep("", struct{}{}, scenarios)
		}),
		symDirs: sync.OnceValue(func() map[string][]int {
			dirs := map[string][]int{}
			for i, s := range b.in.Symbols {
				d := path.Dir(s.Decl.Path)
				dirs[d] = append(dirs[d], i)
			}
			return dirs
		}),
	}
	if f := b.in.Facts; len(f.Controllers) > 0 || len(f.SchedulerPlugins) > 0 {
		r.controllers = sync.OnceValue(b.controllerData)
	}
	return r
}

// bilingual reports whether b's release is written in several languages.
func (b *builder) bilingual() bool { return len(b.rel.langs) > 1 }

// firstLang reports whether b is its release's first language's builder,
// the one that renders the pages the languages share.
func (b *builder) firstLang() bool { return b.rel.langs[0] == b }
