package site

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/klauspost/compress/zstd"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// facts.json.zst is every fact of the release, for readers and tools to
// download; no page reads it. It is fact.Facts.WriteCompactJSON's output
// (facts.json with the call graph written with a symbol table: 4.2 MB of
// JSON instead of 12.6 at v1.37.2) compressed with zstd, which every
// platform's zstd command opens (zstd -d, unzstd), as do the libraries of
// most languages.
//
// At v1.37.2 it is 441 KB where facts.json.gz, the plain JSON gzipped at
// its best level, was 709 KB; over the nine releases of v1.29..v1.37,
// 3.4 MB where it was 5.5. The symbol table does most of it (the compact
// JSON gzipped: 487 KB) and zstd's best level the rest; the plain JSON in
// zstd is 588 KB, and github.com/ulikunitz/xz, the Go xz, does worse than
// zstd on either (624 KB, 485 KB). Writing the compact JSON and encoding
// it takes 0.17 to 0.19 s on two cores (BenchmarkFactsFile), against
// 0.22 s for the plain JSON and gzip.
//
// In a site of several releases, the releases' facts are much alike, and
// every release's file but the newest's is its compact JSON compressed
// against the newest's as a dictionary (encodeFactsPatch), as zstd
// --patch-from does; the newest's is as a site of that release alone
// has it. Over v1.29..v1.37, the nine files weigh 2.65 MB where they
// weighed 3.44 MB: v1.37.2's is 441 KB still, and the eight others,
// 350 to 417 KB each alone, 267 to 289 KB (v1.29.6 350 → 275 KB, v1.34.4
// 374 → 270 KB, v1.36.3 417 → 267 KB). The zstd command at -19 makes
// 193 to 219 KB of them (2.11 MB in all); this encoder's best level with
// a dictionary is about its -9 (v1.34.4: 261 KB). Each such file takes
// 0.3 to 0.4 s to encode, against 0.17 s alone. Reading one takes the
// newest's JSON: ReadSiteFacts, ReadFactsDict, or zstd -d
// --patch-from=<the newest's facts.json>.

// encodeFacts is facts.json.zst's bytes. The encoder is
// github.com/klauspost/compress/zstd at its best level, one goroutine,
// EncodeAll (one frame, its content size in the header, a checksum): the
// same facts make the same bytes, whatever the machine, with one version
// of the library. Its window, the default 8 MB, is more than the 4.2 MB
// of JSON, so a decoder needs no more memory than that.
func encodeFacts(f *fact.Facts) ([]byte, error) {
	js, err := compactFacts(f)
	if err != nil {
		return nil, err
	}
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBestCompression), zstd.WithEncoderConcurrency(1))
	if err != nil {
		return nil, err
	}
	defer enc.Close()
	return enc.EncodeAll(js, nil), nil
}

func compactFacts(f *fact.Facts) ([]byte, error) {
	var js bytes.Buffer
	if err := f.WriteCompactJSON(&js); err != nil {
		return nil, err
	}
	return js.Bytes(), nil
}

// maxPatchWindow bounds the encoder's window of a patch frame
// (encodeFactsPatch): 128 MB, an encoder's history of twice that; the 8
// or 16 MB that the newest release's JSON and another's take at v1.37.2
// are far below. Facts that would need more are written alone, as
// encodeFacts writes them.
const maxPatchWindow = 1 << 27

// encodeFactsPatch is facts.json.zst's bytes for a release of a site of
// several but the newest, whose compact JSON is ref (the content of its
// facts.json.zst): f's compact JSON in one zstd frame compressed with ref
// as a raw-content dictionary, the frame naming no dictionary (its ID 0),
// as zstd --patch-from writes it. It is decoded with ref given as the
// same (zstd -d --patch-from=newest.json, ReadFactsDict).
//
// The encoder is encodeFacts's with the dictionary, and a window, how far
// back it may refer, of the power of two that holds ref and the JSON
// (8 MB, 16 MB for v1.36.3 against v1.37.2), so that every byte of ref
// can be referred to. The frame header states the window a decoder
// needs, the power of two above the content (4 MB for v1.34.4's 3.5 MB):
// the format lets a frame refer to all of its dictionary for as long as
// its output is within its window, which it always is. The frame is not
// a single segment, so its header does state that window, larger than
// the content: that is how ReadFacts tells a patch. The same facts and
// ref make the same bytes.
func encodeFactsPatch(f *fact.Facts, ref []byte) ([]byte, error) {
	js, err := compactFacts(f)
	if err != nil {
		return nil, err
	}
	window := zstd.MinWindowSize
	for window < len(ref)+len(js) && window < maxPatchWindow {
		window *= 2
	}
	if len(ref) == 0 || len(ref)+len(js) > window {
		return encodeFacts(f)
	}
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBestCompression), zstd.WithEncoderConcurrency(1),
		zstd.WithEncoderDictRaw(0, ref), zstd.WithWindowSize(window), zstd.WithSingleSegment(false))
	if err != nil {
		return nil, err
	}
	defer enc.Close()
	return enc.EncodeAll(js, nil), nil
}

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

// encodeFactsFile is b's facts.json.zst (factsFileData): encodeFacts's,
// or in a site of several releases, for every release but the newest,
// encodeFactsPatch's against the content of the newest's facts.json.zst,
// its bytes decoded from that file (made once, by the newest's builder):
// the dictionary is by construction the very JSON a reader gets from
// `zstd -d` of the newest's file.
func (b *builder) encodeFactsFile() ([]byte, error) {
	nb := b.factsNewest()
	if nb == nil {
		return encodeFacts(b.in.Facts)
	}
	data, err := nb.factsFileData()
	if err != nil {
		return nil, fmt.Errorf("%s's facts: %w", nb.in.Tag, err)
	}
	ref, err := decodeZstd(data, nil)
	if err != nil {
		return nil, fmt.Errorf("%s's facts: %w", nb.in.Tag, err)
	}
	return encodeFactsPatch(b.in.Facts, ref)
}

// decoderOptions are the zstd decoder's options for facts.json.zst: one
// goroutine, and ref as the raw-content dictionary an older release's
// file is compressed against (encodeFactsPatch) when ref is not nil.
func decoderOptions(ref []byte) []zstd.DOption {
	opts := []zstd.DOption{zstd.WithDecoderConcurrency(1)}
	if ref != nil {
		opts = append(opts, zstd.WithDecoderDictRaw(0, ref))
	}
	return opts
}

// decodeZstd is the content of the zstd frames data, compressed against
// the raw-content dictionary ref when ref is not nil.
func decodeZstd(data, ref []byte) ([]byte, error) {
	zr, err := zstd.NewReader(nil, decoderOptions(ref)...)
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	return zr.DecodeAll(data, nil)
}

// ErrFactsPatch is what ReadFacts returns, wrapped, for the facts.json.zst
// of a release of a site of several but the newest: it is compressed
// against the newest's facts, and read with them (ReadSiteFacts,
// ReadFactsDict; zstd -d --patch-from).
var ErrFactsPatch = errors.New("compressed against the facts of the site's newest release (an older release of a site of several): " +
	"read it with site.ReadSiteFacts, or site.ReadFactsDict given the newest's JSON; " +
	"with zstd: zstd -d ../<newest>/facts.json.zst -o newest.json && zstd -d --patch-from=newest.json facts.json.zst")

// ReadFacts reads the facts a site offers: its facts.json.zst, a
// facts.json.gz of a site built before it, or facts.json in either form
// (fact.ReadJSON), told apart by their first bytes. It cannot read the
// facts.json.zst of a release of a multi-release site but the newest,
// which is compressed against the newest's facts: for that one it returns
// an error wrapping ErrFactsPatch (read it with ReadSiteFacts or
// ReadFactsDict).
func ReadFacts(r io.Reader) (*fact.Facts, error) { return readFacts(r, nil) }

// ReadFactsDict is ReadFacts for a release of a multi-release site:
// newest is the content of the site's newest release's facts.json.zst
// (the JSON `zstd -d` makes of it), which the facts.json.zst of every
// other release is compressed against. It reads whatever ReadFacts
// reads too.
func ReadFactsDict(r io.Reader, newest []byte) (*fact.Facts, error) {
	return readFacts(r, newest)
}

// ReadSiteFacts reads the facts of release tag of the site built into
// dir (Build, BuildReleases): in a site of several releases,
// <dir>/<tag>/facts.json.zst, which for every release but the newest is
// read with the newest's (ReadFactsDict); in a site of one release,
// <dir>/facts.json.zst, whose facts must be tag's. An empty tag is the
// site's newest release, or its only one. The newest release is the one
// BuildReleases put first: of the site's directories that hold a
// facts.json.zst, the newest tag by semantic version (a tag that is not
// one, a branch, counts as newer).
func ReadSiteFacts(dir, tag string) (*fact.Facts, error) {
	if _, err := os.Stat(filepath.Join(dir, factsFile)); err == nil {
		f, err := readFactsFile(filepath.Join(dir, factsFile), nil)
		if err == nil && tag != "" && f.Tag != tag {
			return nil, fmt.Errorf("read facts: %s is a site of %s, not %s", dir, f.Tag, tag)
		}
		return f, err
	}
	tags, err := siteReleaseTags(dir)
	if err != nil {
		return nil, err
	}
	if len(tags) == 0 {
		return nil, fmt.Errorf("read facts: no %s in %s or its release directories", factsFile, dir)
	}
	newest := tags[0]
	if tag == "" {
		tag = newest
	}
	if !slices.Contains(tags, tag) {
		return nil, fmt.Errorf("read facts: no release %s in %s (it has %s)", tag, dir, strings.Join(tags, ", "))
	}
	if tag == newest {
		return readFactsFile(filepath.Join(dir, tag, factsFile), nil)
	}
	data, err := os.ReadFile(filepath.Join(dir, newest, factsFile))
	if err != nil {
		return nil, fmt.Errorf("read facts: %w", err)
	}
	ref, err := decodeZstd(data, nil)
	if err != nil {
		return nil, fmt.Errorf("read facts: %s's %s: %w", newest, factsFile, err)
	}
	return readFactsFile(filepath.Join(dir, tag, factsFile), ref)
}

// siteReleaseTags lists the releases of the multi-release site in dir,
// newest first: its directories that hold a facts.json.zst.
func siteReleaseTags(dir string) ([]string, error) {
	es, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read facts: %w", err)
	}
	var tags []string
	for _, e := range es {
		if e.IsDir() && checkTag(e.Name()) == nil {
			if st, err := os.Stat(filepath.Join(dir, e.Name(), factsFile)); err == nil && st.Mode().IsRegular() {
				tags = append(tags, e.Name())
			}
		}
	}
	sort.Slice(tags, func(i, j int) bool { return newerFirst(tags[i], tags[j]) })
	return tags, nil
}

func readFactsFile(name string, ref []byte) (*fact.Facts, error) {
	r, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("read facts: %w", err)
	}
	defer r.Close()
	f, err := readFacts(r, ref)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return f, nil
}

// readFacts is ReadFacts, with zstd frames compressed against ref when
// ref is not nil.
func readFacts(r io.Reader, ref []byte) (*fact.Facts, error) {
	br := bufio.NewReader(r)
	magic, _ := br.Peek(4)
	switch {
	case bytes.Equal(magic, []byte{0x28, 0xb5, 0x2f, 0xfd}):
		var h zstd.Header
		head, _ := br.Peek(zstd.HeaderMaxSize)
		patch := h.Decode(head) == nil && isPatchFrame(h)
		zr, err := zstd.NewReader(br, decoderOptions(ref)...)
		if err != nil {
			return nil, err
		}
		defer zr.Close()
		f, err := readFactsJSON(zr)
		switch {
		case err != nil && patch && ref == nil:
			return nil, fmt.Errorf("read facts: %w (zstd: %v)", ErrFactsPatch, errors.Unwrap(err))
		case err != nil && patch:
			return nil, fmt.Errorf("%w (are the facts given the site's newest release's, the content of its facts.json.zst?)", err)
		}
		return f, err
	case bytes.HasPrefix(magic, []byte{0x1f, 0x8b}):
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, err
		}
		return readFactsJSON(zr)
	}
	return readFactsJSON(br)
}

// isPatchFrame tells, from its header, a frame encodeFactsPatch writes:
// not a single segment, its window larger than its content. Other
// encoders, and encodeFacts, write a frame of a known size that fits its
// window as a single segment; one of less than 1 KB may state a window
// larger than it, but is not facts. ReadFacts uses it only to name what
// a frame it cannot decode is.
func isPatchFrame(h zstd.Header) bool {
	return !h.Skippable && !h.SingleSegment && h.DictionaryID == 0 && h.HasFCS &&
		h.FrameContentSize >= zstd.MinWindowSize && h.WindowSize > h.FrameContentSize
}

// readFactsJSON reads r to its end, so that a compressed file's checksum
// is checked, then decodes it.
func readFactsJSON(r io.Reader) (*fact.Facts, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("read facts: %w", err)
	}
	f, err := fact.ReadJSON(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("read facts: %w", err)
	}
	return f, nil
}
