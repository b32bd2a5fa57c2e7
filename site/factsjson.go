package site

import "strconv"

// factsFileData is facts.json.zst, made once per build: the home page
// states its size and the facts.json.zst page writes it. In a site of
// several releases, every release's but the newest's is compressed
// against the newest's facts (encodeFactsFile). A bilingual release's
// languages share the file (sharedPage): its first language's builder
// makes it.
func (b *builder) factsFileData() ([]byte, error) { return b.rel.factsFile() }

// factsSize is facts.json.zst's size in bytes. A Cache remembers it with
// the release and the facts the file is compressed against (the newest
// release's, for an older release of a site of several; none
// otherwise), so a rebuild that reuses facts.json.zst does not marshal
// the facts, several megabytes of JSON, only to measure them.
func (b *builder) factsSize() (int, error) {
	against := b.factsAgainst()
	if n, ok := b.reuse.cachedFactsSize(against); ok {
		return n, nil
	}
	data, err := b.factsFileData()
	if err != nil {
		return 0, err
	}
	b.reuse.keepFactsSize(len(data), against)
	return len(data), nil
}

// byteSize is n as readers read a file's size: in bytes below a
// thousand, then in whole kilobytes, then in megabytes with one decimal
// (powers of 1000, as file managers and browsers' download lists show
// them).
func byteSize(n int) string {
	switch {
	case n < 1000:
		return strconv.Itoa(n) + " bytes"
	case n < 999_500: // rounds to at most three digits of kilobytes
		return strconv.Itoa((n+500)/1000) + " KB"
	default:
		return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + " MB"
	}
}
