package site

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"

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

// encodeFacts is facts.json.zst's bytes. The encoder is
// github.com/klauspost/compress/zstd at its best level, one goroutine,
// EncodeAll (one frame, its content size in the header, a checksum): the
// same facts make the same bytes, whatever the machine, with one version
// of the library. Its window, the default 8 MB, is more than the 4.2 MB
// of JSON, so a decoder needs no more memory than that.
func encodeFacts(f *fact.Facts) ([]byte, error) {
	var js bytes.Buffer
	if err := f.WriteCompactJSON(&js); err != nil {
		return nil, err
	}
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBestCompression), zstd.WithEncoderConcurrency(1))
	if err != nil {
		return nil, err
	}
	defer enc.Close()
	return enc.EncodeAll(js.Bytes(), nil), nil
}

// ReadFacts reads the facts a site offers: its facts.json.zst, a
// facts.json.gz of a site built before it, or facts.json in either form
// (fact.ReadJSON), told apart by their first bytes.
func ReadFacts(r io.Reader) (*fact.Facts, error) {
	br := bufio.NewReader(r)
	magic, _ := br.Peek(4)
	switch {
	case bytes.Equal(magic, []byte{0x28, 0xb5, 0x2f, 0xfd}):
		zr, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1))
		if err != nil {
			return nil, err
		}
		defer zr.Close()
		return readFactsJSON(zr)
	case bytes.HasPrefix(magic, []byte{0x1f, 0x8b}):
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, err
		}
		return readFactsJSON(zr)
	}
	return readFactsJSON(br)
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
