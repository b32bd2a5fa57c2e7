package factsfile

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/zstd"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// Name is the file's name in a release's directory of a site.
const Name = "facts.json.zst"

// Encode is facts.json.zst's bytes for f. The encoder is
// github.com/klauspost/compress/zstd at its best level, one goroutine,
// EncodeAll (one frame, its content size in the header, a checksum): the
// same facts make the same bytes, whatever the machine, with one version
// of the library. Its window is the library's default, larger than a
// release's compact JSON, so a decoder needs no more memory than that.
func Encode(f *fact.Facts) ([]byte, error) {
	js, err := compactJSON(f)
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

func compactJSON(f *fact.Facts) ([]byte, error) {
	var js bytes.Buffer
	if err := f.WriteCompactJSON(&js); err != nil {
		return nil, err
	}
	return js.Bytes(), nil
}

// maxPatchWindow bounds the encoder's window of a patch frame
// (EncodePatch), and so its history (twice the window): far above what
// two releases' JSON take. Facts that would need more are written
// alone, as Encode writes them.
const maxPatchWindow = 1 << 27

// EncodePatch is facts.json.zst's bytes for a release of a site of
// several but the newest, whose compact JSON is ref (the content of its
// facts.json.zst, Content): f's compact JSON in one zstd frame compressed
// with ref as a raw-content dictionary, the frame naming no dictionary
// (its ID 0), as zstd --patch-from writes it. It is decoded with ref given
// as the same (zstd -d --patch-from=newest.json, ReadDict). With an empty
// ref, or one too large to refer to, it is Encode's.
//
// The encoder is Encode's with the dictionary, and a window, how far back
// it may refer, of the power of two that holds ref and the JSON, so that
// every byte of ref can be referred to. The frame header states the
// window a decoder needs, the power of two above the content: the format
// lets a frame refer to all of its dictionary for as long as its output
// is within its window, which it always is. The frame is not a single
// segment, so its header does state that window, larger than the
// content: that is how Read tells a patch. The same facts and ref make
// the same bytes.
func EncodePatch(f *fact.Facts, ref []byte) ([]byte, error) {
	js, err := compactJSON(f)
	if err != nil {
		return nil, err
	}
	window := zstd.MinWindowSize
	for window < len(ref)+len(js) && window < maxPatchWindow {
		window *= 2
	}
	if len(ref) == 0 || len(ref)+len(js) > window {
		return Encode(f)
	}
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBestCompression), zstd.WithEncoderConcurrency(1),
		zstd.WithEncoderDictRaw(0, ref), zstd.WithWindowSize(window), zstd.WithSingleSegment(false))
	if err != nil {
		return nil, err
	}
	defer enc.Close()
	return enc.EncodeAll(js, nil), nil
}

// Content is the JSON a facts.json.zst holds, the bytes `zstd -d` makes of
// it: of the newest release's file, the ref EncodePatch and ReadDict take.
func Content(data []byte) ([]byte, error) { return decode(data, nil) }

// decoderOptions are the zstd decoder's options for facts.json.zst: one
// goroutine, and ref as the raw-content dictionary an older release's
// file is compressed against (EncodePatch) when ref is not nil.
func decoderOptions(ref []byte) []zstd.DOption {
	opts := []zstd.DOption{zstd.WithDecoderConcurrency(1)}
	if ref != nil {
		opts = append(opts, zstd.WithDecoderDictRaw(0, ref))
	}
	return opts
}

// decode is the content of the zstd frames data, compressed against the
// raw-content dictionary ref when ref is not nil.
func decode(data, ref []byte) ([]byte, error) {
	zr, err := zstd.NewReader(nil, decoderOptions(ref)...)
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	return zr.DecodeAll(data, nil)
}

// ErrPatch is what Read returns, wrapped, for the facts.json.zst of a
// release of a site of several but the newest: it is compressed against
// the newest's facts, and read with them (ReadSite, ReadDict; zstd -d
// --patch-from).
var ErrPatch = errors.New("compressed against the facts of the site's newest release (an older release of a site of several): " +
	"read it with factsfile.ReadSite, or factsfile.ReadDict given the newest's JSON; " +
	"with zstd: zstd -d ../<newest>/facts.json.zst -o newest.json && zstd -d --patch-from=newest.json facts.json.zst")

// Read reads the facts a site offers: its facts.json.zst, a facts.json.gz
// of a site built before it, or facts.json in either form (fact.ReadJSON),
// told apart by their first bytes. It cannot read the facts.json.zst of a
// release of a multi-release site but the newest, which is compressed
// against the newest's facts: for that one it returns an error wrapping
// ErrPatch (read it with ReadSite or ReadDict).
func Read(r io.Reader) (*fact.Facts, error) { return read(r, nil) }

// ReadDict is Read for a release of a multi-release site: newest is the
// content of the site's newest release's facts.json.zst (Content, the
// JSON `zstd -d` makes of it), which the facts.json.zst of every other
// release is compressed against. It reads whatever Read reads too.
func ReadDict(r io.Reader, newest []byte) (*fact.Facts, error) {
	return read(r, newest)
}

// read is Read, with zstd frames compressed against ref when ref is not
// nil.
func read(r io.Reader, ref []byte) (*fact.Facts, error) {
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
		f, err := readJSON(zr)
		switch {
		case err != nil && patch && ref == nil:
			return nil, fmt.Errorf("read facts: %w (zstd: %v)", ErrPatch, errors.Unwrap(err))
		case err != nil && patch:
			return nil, fmt.Errorf("%w (are the facts given the site's newest release's, the content of its facts.json.zst?)", err)
		}
		return f, err
	case bytes.HasPrefix(magic, []byte{0x1f, 0x8b}):
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, err
		}
		return readJSON(zr)
	}
	return readJSON(br)
}

// isPatchFrame tells, from its header, a frame EncodePatch writes: not a
// single segment, its window larger than its content. Other encoders, and
// Encode, write a frame of a known size that fits its window as a single
// segment; one smaller than zstd.MinWindowSize may state a window larger
// than it, but is not facts. Read uses it only to name what a frame it cannot decode
// is.
func isPatchFrame(h zstd.Header) bool {
	return !h.Skippable && !h.SingleSegment && h.DictionaryID == 0 && h.HasFCS &&
		h.FrameContentSize >= zstd.MinWindowSize && h.WindowSize > h.FrameContentSize
}

// readJSON reads r to its end, so that a compressed file's checksum is
// checked, then decodes it.
func readJSON(r io.Reader) (*fact.Facts, error) {
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
