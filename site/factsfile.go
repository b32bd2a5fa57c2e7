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

// factsAgainst is the facts b's facts.json.zst is compressed against:
// when b is a release of a site of several but the newest, the newest's
// (releaseSet.newest); nil for the newest release and in a site of one
// release.
func (b *builder) factsAgainst() *fact.Facts {
	if n := b.factsNewest(); n != nil {
		return n.facts
	}
	return nil
}

// factsNewest is what b's facts.json.zst is compressed against (see
// factsAgainst), nil when nothing.
func (b *builder) factsNewest() *newestFacts {
	if b.set == nil || b.self == 0 || b.set.newest.file == nil {
		return nil
	}
	return &b.set.newest
}

// newestFacts are the newest release of a site of several's facts and
// its facts.json.zst, which the other releases' are compressed against.
type newestFacts struct {
	tag   string
	facts *fact.Facts
	file  func() ([]byte, error) // made once, by the newest's builder
}

// newestOf is what the newest release, nb, gives the others for their
// facts files.
func newestOf(nb *builder) newestFacts {
	return newestFacts{tag: nb.in.Tag, facts: nb.in.Facts, file: nb.factsFileData}
}

// encodeFactsFile is b's facts.json.zst (factsFileData): factsfile.Encode's,
// or in a site of several releases, for every release but the newest,
// factsfile.EncodePatch's against the content of the newest's facts.json.zst,
// its bytes decoded from that file (made once, by the newest's builder):
// the dictionary is by construction the very JSON a reader gets from
// `zstd -d` of the newest's file.
func (b *builder) encodeFactsFile() ([]byte, error) {
	n := b.factsNewest()
	if n == nil {
		return factsfile.Encode(b.in.Facts)
	}
	data, err := n.file()
	if err != nil {
		return nil, fmt.Errorf("%s's facts: %w", n.tag, err)
	}
	ref, err := factsfile.Content(data)
	if err != nil {
		return nil, fmt.Errorf("%s's facts: %w", n.tag, err)
	}
	return factsfile.EncodePatch(b.in.Facts, ref)
}
