package factsfile

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// sample is facts of tag with a call graph of n calls, callers and
// callees named again and again, as a release's are; shift varies which.
func sample(tag string, n, shift int) *fact.Facts {
	f := &fact.Facts{Schema: fact.SchemaVersion, Tag: tag, Roots: []string{"k8s.io/kubernetes/pkg/..."}}
	for i := range n {
		f.Calls = append(f.Calls, fact.Call{
			From: "k8s.io/kubernetes/pkg/controller/deployment.f" + strconv.Itoa(i/7),
			To:   "k8s.io/kubernetes/pkg/controller/deployment.g" + strconv.Itoa((i*13+shift)%97),
			At:   fact.Location{Path: "pkg/controller/deployment/f" + strconv.Itoa(i/20) + ".go", StartLine: 10 + i, EndLine: 10 + i + i%3},
			Kind: []string{"static", "interface", "func value"}[i%3],
		})
	}
	return f
}

func jsonOf(t testing.TB, f *fact.Facts, compact bool) []byte {
	t.Helper()
	var b bytes.Buffer
	write := f.WriteJSON
	if compact {
		write = f.WriteCompactJSON
	}
	if err := write(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestEncode: the file is one zstd frame of the facts' compact JSON, its
// size and a checksum in the header and a window no larger than zstd's
// default (decoders need no more);
// it reads back to the very facts, is smaller than the plain JSON in the
// same zstd, and the same facts make the same bytes.
func TestEncode(t *testing.T) {
	f := sample("v1.0.0", 2000, 0)
	data, err := Encode(f)
	if err != nil {
		t.Fatal(err)
	}
	compact := jsonOf(t, f, true)
	var h zstd.Header
	if err := h.Decode(data); err != nil {
		t.Fatal(err)
	}
	if !h.HasFCS || h.FrameContentSize != uint64(len(compact)) || h.WindowSize > 8<<20 || !h.HasCheckSum || isPatchFrame(h) {
		t.Errorf("frame header: content size %v %d (want %d), window %d, checksum %v", h.HasFCS, h.FrameContentSize, len(compact), h.WindowSize, h.HasCheckSum)
	}
	if js, err := Content(data); err != nil || !bytes.Equal(js, compact) {
		t.Errorf("the file holds %d bytes that are not WriteCompactJSON's %d, %v", len(js), len(compact), err)
	}
	got, err := Read(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(jsonOf(t, got, false), jsonOf(t, f, false)) {
		t.Error("the file does not read back to the facts")
	}
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBestCompression), zstd.WithEncoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	if plain := enc.EncodeAll(jsonOf(t, f, false), nil); len(plain) <= len(data) {
		t.Errorf("the file is %d bytes, the plain JSON in zstd %d", len(data), len(plain))
	}
	if again, err := Encode(f); err != nil || !bytes.Equal(again, data) {
		t.Errorf("encoding the facts again makes other bytes, %v", err)
	}
}

// TestReadOlderForms: Read reads what sites wrote before facts.json.zst
// (facts.json.gz, WriteJSON's form gzipped) and plain facts.json, and a
// file cut short is an error, not fewer facts.
func TestReadOlderForms(t *testing.T) {
	f := sample("v1.0.0", 300, 0)
	plain := jsonOf(t, f, false)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(plain)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"facts.json": plain, "facts.json.gz": gz.Bytes(), "compact facts.json": jsonOf(t, f, true)} {
		got, err := Read(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !bytes.Equal(jsonOf(t, got, false), plain) {
			t.Errorf("%s does not read back to the facts", name)
		}
	}
	data, err := Encode(f)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Read(bytes.NewReader(data[:len(data)-4])); err == nil {
		t.Error("Read of a truncated facts.json.zst succeeded")
	}
}

// TestEncodePatch: an older release's file is one frame of its compact
// JSON compressed against the newest's, naming no dictionary, as zstd
// --patch-from writes it: smaller than the release's file alone, refused
// by Read with ErrPatch, read by ReadDict given the newest's JSON and not
// given another's; the same facts and ref make the same bytes.
func TestEncodePatch(t *testing.T) {
	newest, older := sample("v1.2.0", 3000, 0), sample("v1.1.0", 2800, 5)
	ref := jsonOf(t, newest, true)
	data, err := EncodePatch(older, ref)
	if err != nil {
		t.Fatal(err)
	}
	js := jsonOf(t, older, true)
	var h zstd.Header
	if err := h.Decode(data); err != nil {
		t.Fatal(err)
	}
	if h.DictionaryID != 0 || !h.HasFCS || h.FrameContentSize != uint64(len(js)) || !h.HasCheckSum || !isPatchFrame(h) {
		t.Errorf("frame header: dictionary %d, content size %v %d (want %d), checksum %v, single segment %v, window %d",
			h.DictionaryID, h.HasFCS, h.FrameContentSize, len(js), h.HasCheckSum, h.SingleSegment, h.WindowSize)
	}
	alone, err := Encode(older)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) >= len(alone) {
		t.Errorf("the patch is %d bytes, the facts alone %d", len(data), len(alone))
	}
	if _, err := Content(data); err == nil {
		t.Error("the patch decodes without the newest's JSON: it does not refer to it")
	}
	if _, err := Read(bytes.NewReader(data)); !errors.Is(err, ErrPatch) {
		t.Errorf("Read: %v, want ErrPatch", err)
	}
	got, err := ReadDict(bytes.NewReader(data), ref)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(jsonOf(t, got, false), jsonOf(t, older, false)) {
		t.Error("ReadDict does not read the release's facts")
	}
	if _, err := ReadDict(bytes.NewReader(data), jsonOf(t, sample("v1.2.0", 3000, 7), true)); err == nil || errors.Is(err, ErrPatch) {
		t.Errorf("ReadDict given other facts: %v, want a checksum error", err)
	}
	if got, err := ReadDict(bytes.NewReader(alone), ref); err != nil || got.Tag != older.Tag {
		t.Errorf("ReadDict does not read a file encoded alone: %v", err)
	}
	if again, err := EncodePatch(older, ref); err != nil || !bytes.Equal(again, data) {
		t.Errorf("encoding the facts again makes other bytes, %v", err)
	}
	if empty, err := EncodePatch(older, nil); err != nil || !bytes.Equal(empty, alone) {
		t.Errorf("EncodePatch without a ref is not Encode's, %v", err)
	}
}

// writeSite lays files out as a site of the given facts does: one
// release at the top, several each in its own directory, the newest's
// alone and the others' against it; beside them the directories a site
// has that hold no facts.
func writeSite(t *testing.T, facts ...*fact.Facts) string {
	t.Helper()
	dir := t.TempDir()
	write := func(name string, data []byte) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dir, "src", "x.go.html"), []byte("<p>"))
	write(filepath.Join(dir, "assets", "site.css"), nil)
	newest, err := Encode(facts[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(facts) == 1 {
		write(filepath.Join(dir, Name), newest)
		return dir
	}
	write(filepath.Join(dir, facts[0].Tag, Name), newest)
	ref := jsonOf(t, facts[0], true)
	for _, f := range facts[1:] {
		data, err := EncodePatch(f, ref)
		if err != nil {
			t.Fatal(err)
		}
		write(filepath.Join(dir, f.Tag, Name), data)
	}
	return dir
}

// TestReadSite: ReadSite reads each release of a site of several, the
// newest by semantic version for no tag (v1.10 after v1.9), and the one
// release of a site of one, which must be the tag asked for.
func TestReadSite(t *testing.T) {
	rels := []*fact.Facts{sample("v1.10.0", 1000, 0), sample("v1.9.3", 900, 3), sample("v1.8.0", 800, 4)}
	dir := writeSite(t, rels...)
	for _, tag := range []string{"", "v1.10.0", "v1.9.3", "v1.8.0"} {
		want := rels[0]
		for _, f := range rels {
			if f.Tag == tag {
				want = f
			}
		}
		got, err := ReadSite(dir, tag)
		if err != nil {
			t.Fatalf("ReadSite(%q): %v", tag, err)
		}
		if !bytes.Equal(jsonOf(t, got, false), jsonOf(t, want, false)) {
			t.Errorf("ReadSite(%q) read %s's facts, want %s's", tag, got.Tag, want.Tag)
		}
	}
	if _, err := ReadSite(dir, "v9.9.9"); err == nil || !strings.Contains(err.Error(), "v1.10.0, v1.9.3, v1.8.0") {
		t.Errorf("ReadSite of a release the site does not have: %v", err)
	}

	one := writeSite(t, rels[1])
	if got, err := ReadSite(one, ""); err != nil || got.Tag != "v1.9.3" {
		t.Errorf("ReadSite of a site of one release: %v", err)
	}
	if _, err := ReadSite(one, "v1.10.0"); err == nil {
		t.Error("ReadSite of a site of v1.9.3 for v1.10.0 succeeded")
	}
	if _, err := ReadSite(t.TempDir(), ""); err == nil {
		t.Error("ReadSite of a directory without facts succeeded")
	}
}

// TestNewerFirst: semantic versions newest first, numerically; a tag
// that is none, a branch, before them.
func TestNewerFirst(t *testing.T) {
	tags := []string{"v1.9.0", "master", "v1.10.0", "v1.10.0-rc.1", "v1.29.6"}
	want := []string{"master", "v1.29.6", "v1.10.0", "v1.10.0-rc.1", "v1.9.0"}
	for i := range tags {
		for j := range tags {
			a, b := tags[i], tags[j]
			ia, ib := indexOf(want, a), indexOf(want, b)
			if got := NewerFirst(a, b); got != (ia < ib) {
				t.Errorf("NewerFirst(%s, %s) = %v", a, b, got)
			}
		}
	}
}

func indexOf(s []string, v string) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}

// TestDependencies: a tool reading facts.json.zst imports no site, no
// HTML or diagram renderer and no loader: the package's dependencies are
// the standard library, analyzer/fact, zstd (and its internal packages)
// and x/mod's semver.
func TestDependencies(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	allowed := []string{
		"github.com/kubewalk/kubewalk/analyzer/fact",
		"github.com/klauspost/compress",
		"golang.org/x/mod/semver",
	}
	for _, dep := range strings.Fields(string(out)) {
		first, _, _ := strings.Cut(dep, "/")
		if !strings.Contains(first, ".") || dep == "github.com/kubewalk/kubewalk/analyzer/fact/factsfile" {
			continue // the standard library, the package itself
		}
		ok := false
		for _, a := range allowed {
			if dep == a || strings.HasPrefix(dep, a+"/") {
				ok = true
			}
		}
		if !ok {
			t.Errorf("factsfile depends on %s", dep)
		}
	}
}

// BenchmarkEncode encodes a real release's facts as facts.json.zst (the
// facts read from $KUBEWALK_BENCH_FACTS: a site's facts.json.zst or an
// older one's facts.json.gz) and reports the bytes written, and those of
// facts.json.gz as sites wrote it before, the plain JSON gzipped at its
// best level.
//
//	KUBEWALK_BENCH_FACTS=public/facts.json.zst go test -run '^$' -bench Encode ./analyzer/fact/factsfile
func BenchmarkEncode(b *testing.B) {
	path := os.Getenv("KUBEWALK_BENCH_FACTS")
	if path == "" {
		b.Skip("KUBEWALK_BENCH_FACTS not set (a built site's facts.json.zst)")
	}
	r, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	f, err := Read(r)
	r.Close()
	if err != nil {
		b.Fatal(err)
	}
	plain := jsonOf(b, f, false)
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(plain)
	if err := zw.Close(); err != nil {
		b.Fatal(err)
	}
	var n int
	for b.Loop() {
		data, err := Encode(f)
		if err != nil {
			b.Fatal(err)
		}
		n = len(data)
	}
	b.ReportMetric(float64(n)/1e3, "zst-kB")
	b.ReportMetric(float64(gz.Len())/1e3, "gz-kB")
	b.ReportMetric(float64(len(plain))/1e6, "json-MB")
}
