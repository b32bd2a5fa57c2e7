package site

import (
	"fmt"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/analyzer/fact/factsfile"
)

// facts.json.zst is every fact of the release, for readers and tools to
// download (package factsfile writes and reads it). In a site of several
// releases, every release's file but the newest's is compressed against
// the newest's (factsfile.EncodePatch); the newest's is as a site of that
// release alone has it.

// factsNewest is, when b is a release of a site of several but the
// newest, the newest's builder: b's facts.json.zst is compressed against
// the newest's facts. It is nil for the newest release and in a site of
// one release.
func (b *builder) factsNewest() *builder {
	if b.set == nil || b.self == 0 || len(b.set.rels) == 0 || b.set.rels[0].b == nil {
		return nil
	}
	return b.set.rels[0].b
}

// factsAgainst is the facts b's facts.json.zst is compressed against:
// the newest release's (factsNewest), or nil.
func (b *builder) factsAgainst() *fact.Facts {
	if nb := b.factsNewest(); nb != nil {
		return nb.in.Facts
	}
	return nil
}

// encodeFactsFile is b's facts.json.zst (factsFileData): factsfile.Encode's,
// or in a site of several releases, for every release but the newest,
// factsfile.EncodePatch's against the content of the newest's facts.json.zst,
// its bytes decoded from that file (made once, by the newest's builder):
// the dictionary is by construction the very JSON a reader gets from
// `zstd -d` of the newest's file.
func (b *builder) encodeFactsFile() ([]byte, error) {
	nb := b.factsNewest()
	if nb == nil {
		return factsfile.Encode(b.in.Facts)
	}
	data, err := nb.factsFileData()
	if err != nil {
		return nil, fmt.Errorf("%s's facts: %w", nb.in.Tag, err)
	}
	ref, err := factsfile.Content(data)
	if err != nil {
		return nil, fmt.Errorf("%s's facts: %w", nb.in.Tag, err)
	}
	return factsfile.EncodePatch(b.in.Facts, ref)
}
