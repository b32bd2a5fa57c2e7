package site

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/klauspost/compress/zstd"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// manyCalls is the fixture's facts with a call graph of n calls more,
// callers and callees named again and again, as a release's are.
func manyCalls(n int) func(*Input) {
	return func(in *Input) {
		f := *in.Facts
		f.Calls = slices.Clone(f.Calls)
		for i := range n {
			f.Calls = append(f.Calls, fact.Call{
				From: "k8s.io/kubernetes/pkg/controller/deployment.f" + strconv.Itoa(i/7),
				To:   "k8s.io/kubernetes/pkg/controller/deployment.g" + strconv.Itoa(i*13%97),
				At:   fact.Location{Path: "pkg/controller/deployment/f" + strconv.Itoa(i/20) + ".go", StartLine: 10 + i, EndLine: 10 + i + i%3},
				Kind: []string{"static", "interface", "func value"}[i%3],
			})
		}
		in.Facts = &f
	}
}

// TestFactsFile: the site's facts.json.zst is one zstd frame of the facts'
// compact JSON, which reads back to the very facts, and a rebuild writes
// the same bytes.
func TestFactsFile(t *testing.T) {
	in, _ := fixture(t)
	manyCalls(500)(&in)
	out, _ := buildFixture(t, manyCalls(500))
	data, err := os.ReadFile(filepath.Join(out, factsFile))
	if err != nil {
		t.Fatal(err)
	}
	var h zstd.Header
	if err := h.Decode(data); err != nil {
		t.Fatal(err)
	}
	var compact bytes.Buffer
	if err := in.Facts.WriteCompactJSON(&compact); err != nil {
		t.Fatal(err)
	}
	// Its size in the header (zstd -l shows it) and a window no larger
	// than the default 8 MB, so decoders need no more.
	if !h.HasFCS || h.FrameContentSize != uint64(compact.Len()) || h.WindowSize > 8<<20 || !h.HasCheckSum {
		t.Errorf("frame header: content size %v %d (want %d), window %d, checksum %v", h.HasFCS, h.FrameContentSize, compact.Len(), h.WindowSize, h.HasCheckSum)
	}
	zr, err := zstd.NewReader(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	js, err := zr.DecodeAll(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(js, compact.Bytes()) {
		t.Errorf("facts.json.zst holds %d bytes that are not WriteCompactJSON's %d", len(js), compact.Len())
	}
	got, err := ReadFacts(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var want, back bytes.Buffer
	if err := in.Facts.WriteJSON(&want); err != nil {
		t.Fatal(err)
	}
	if err := got.WriteJSON(&back); err != nil {
		t.Fatal(err)
	}
	if got.Tag != fixtureTag || len(got.Calls) != len(in.Facts.Calls) || !bytes.Equal(back.Bytes(), want.Bytes()) {
		t.Errorf("facts.json.zst does not read back to the release's facts: tag %q, %d calls of %d", got.Tag, len(got.Calls), len(in.Facts.Calls))
	}
	// The symbol table is what makes it small: the same facts as WriteJSON
	// writes them, in the same zstd, weigh more.
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBestCompression), zstd.WithEncoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	if plain := enc.EncodeAll(want.Bytes(), nil); len(plain) <= len(data) {
		t.Errorf("facts.json.zst is %d bytes, the plain JSON in zstd %d", len(data), len(plain))
	}

	again, _ := buildFixture(t, manyCalls(500))
	if data2, err := os.ReadFile(filepath.Join(again, factsFile)); err != nil || !bytes.Equal(data, data2) {
		t.Errorf("a second build wrote other bytes (%d, %d), %v", len(data), len(data2), err)
	}
}

// TestReadFacts: ReadFacts reads what sites wrote before facts.json.zst
// (facts.json.gz, WriteJSON's form gzipped) and plain facts.json.
func TestReadFacts(t *testing.T) {
	in, _ := fixture(t)
	var plain bytes.Buffer
	if err := in.Facts.WriteJSON(&plain); err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(plain.Bytes())
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"facts.json": plain.Bytes(), "facts.json.gz": gz.Bytes()} {
		got, err := ReadFacts(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if diff := cmp.Diff(in.Facts.Calls, got.Calls); diff != "" || got.Tag != in.Facts.Tag {
			t.Errorf("%s read back as tag %q, calls (-want +got):\n%s", name, got.Tag, diff)
		}
	}
	// A file cut short is an error, not fewer facts.
	data, err := encodeFacts(in.Facts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFacts(bytes.NewReader(data[:len(data)-4])); err == nil {
		t.Error("ReadFacts of a truncated facts.json.zst succeeded")
	}
}

// BenchmarkFactsFile encodes a real release's facts as facts.json.zst
// (the facts read from $KUBEWALK_BENCH_FACTS: a site's facts.json.zst or
// an older one's facts.json.gz) and reports the bytes written, and those
// of facts.json.gz as sites wrote it before, the plain JSON gzipped at
// its best level.
//
//	KUBEWALK_BENCH_FACTS=public/facts.json.zst go test -run '^$' -bench FactsFile ./site
func BenchmarkFactsFile(b *testing.B) {
	path := os.Getenv("KUBEWALK_BENCH_FACTS")
	if path == "" {
		b.Skip("KUBEWALK_BENCH_FACTS not set (a built site's facts.json.zst)")
	}
	r, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	f, err := ReadFacts(r)
	r.Close()
	if err != nil {
		b.Fatal(err)
	}
	var plain bytes.Buffer
	if err := f.WriteJSON(&plain); err != nil {
		b.Fatal(err)
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(plain.Bytes())
	if err := zw.Close(); err != nil {
		b.Fatal(err)
	}
	var n int
	for b.Loop() {
		data, err := encodeFacts(f)
		if err != nil {
			b.Fatal(err)
		}
		n = len(data)
	}
	b.ReportMetric(float64(n)/1e3, "zst-kB")
	b.ReportMetric(float64(gz.Len())/1e3, "gz-kB")
	b.ReportMetric(float64(plain.Len())/1e6, "json-MB")
}
