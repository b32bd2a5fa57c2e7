package site

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/analyzer/fact/factsfile"
	"github.com/kubewalk/kubewalk/source"
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
	// than zstd's default, so decoders need no more.
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
	got, err := factsfile.Read(bytes.NewReader(data))
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

// factsReleases is multiFixture's two releases and a third, oldestTag,
// the older's like, in English and Korean, their call graphs grown each
// by another number of calls (so that each release's facts are their
// own, and like the others'), given oldest first.
func factsReleases(t testing.TB) ([]Release, Options) {
	t.Helper()
	rels, opts := multiFixture(t)
	again, _ := multiFixture(t)
	oldest := again[0]
	oldest.Tag = oldestTag
	oldest.SourceURL = func(p string, from, to int) string { return source.Permalink(oldestTag, p, from, to) }
	rels = append([]Release{oldest}, rels...)
	for i := range rels {
		manyCalls(300 + 100*i)(&rels[i].Input)
		bilingual(&rels[i].Input)
	}
	return rels, opts
}

// buildFactsReleases builds factsReleases into a new directory.
func buildFactsReleases(t testing.TB) (string, []Release) {
	t.Helper()
	rels, opts := factsReleases(t)
	opts.Out = filepath.Join(t.TempDir(), "public")
	if _, err := BuildReleases(context.Background(), rels, opts); err != nil {
		t.Fatal(err)
	}
	return opts.Out, rels
}

func compactJSON(t testing.TB, f *fact.Facts) []byte {
	t.Helper()
	var js bytes.Buffer
	if err := f.WriteCompactJSON(&js); err != nil {
		t.Fatal(err)
	}
	return js.Bytes()
}

func plainJSON(t testing.TB, f *fact.Facts) []byte {
	t.Helper()
	var js bytes.Buffer
	if err := f.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	return js.Bytes()
}

// TestFactsFilePatch: in a site of several releases, the newest's
// facts.json.zst is the very file a site of that release alone has, and
// every other's is one zstd frame of its compact JSON compressed with the
// newest's (the content of the newest's facts.json.zst) as a raw-content
// dictionary, the frame naming none, as zstd --patch-from writes it:
// smaller than the release's file alone, read back to the release's
// facts by factsfile.ReadSite and factsfile.ReadDict, refused by
// factsfile.Read with factsfile.ErrPatch. A second build writes the same
// bytes.
func TestFactsFilePatch(t *testing.T) {
	out, rels := buildFactsReleases(t)
	newest := rels[len(rels)-1] // given oldest first
	if newest.Tag != newTag {
		t.Fatalf("newest release %s, want %s", newest.Tag, newTag)
	}
	read := func(tag string) []byte {
		t.Helper()
		data, err := os.ReadFile(filepath.Join(out, tag, factsFile))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	alone, err := factsfile.Encode(newest.Facts)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(read(newTag), alone) {
		t.Errorf("the newest release's %s is not the one of a site of that release alone", factsFile)
	}
	ref := compactJSON(t, newest.Facts)
	for _, r := range rels[:len(rels)-1] {
		data := read(r.Tag)
		js := compactJSON(t, r.Facts)
		var h zstd.Header
		if err := h.Decode(data); err != nil {
			t.Fatal(err)
		}
		if h.DictionaryID != 0 || !h.HasFCS || h.FrameContentSize != uint64(len(js)) || !h.HasCheckSum || h.SingleSegment || h.WindowSize <= h.FrameContentSize {
			t.Errorf("%s: frame header: dictionary %d, content size %v %d (want %d), checksum %v, single segment %v, window %d",
				r.Tag, h.DictionaryID, h.HasFCS, h.FrameContentSize, len(js), h.HasCheckSum, h.SingleSegment, h.WindowSize)
		}
		got, err := decodeDict(data, ref)
		if err != nil || !bytes.Equal(got, js) {
			t.Errorf("%s: %s with the newest's JSON as dictionary is not its compact JSON (%d bytes of %d), %v", r.Tag, factsFile, len(got), len(js), err)
		}
		if _, err := factsfile.Content(data); err == nil {
			t.Errorf("%s: %s decodes without the newest's JSON: it does not refer to it", r.Tag, factsFile)
		}
		self, err := factsfile.Encode(r.Facts)
		if err != nil {
			t.Fatal(err)
		}
		if len(data) >= len(self) {
			t.Errorf("%s: %s is %d bytes, the release's facts alone %d", r.Tag, factsFile, len(data), len(self))
		}
		if again, err := factsfile.EncodePatch(r.Facts, ref); err != nil || !bytes.Equal(again, data) {
			t.Errorf("%s: encoding the facts again makes other bytes, %v", r.Tag, err)
		}

		if _, err := factsfile.Read(bytes.NewReader(data)); !errors.Is(err, factsfile.ErrPatch) {
			t.Errorf("%s: factsfile.Read: %v, want factsfile.ErrPatch", r.Tag, err)
		}
		want := plainJSON(t, r.Facts)
		f, err := factsfile.ReadDict(bytes.NewReader(data), ref)
		if err != nil {
			t.Fatalf("%s: factsfile.ReadDict: %v", r.Tag, err)
		}
		if !bytes.Equal(plainJSON(t, f), want) {
			t.Errorf("%s: factsfile.ReadDict does not read the release's facts", r.Tag)
		}
		f, err = factsfile.ReadSite(out, r.Tag)
		if err != nil {
			t.Fatalf("%s: factsfile.ReadSite: %v", r.Tag, err)
		}
		if !bytes.Equal(plainJSON(t, f), want) {
			t.Errorf("%s: factsfile.ReadSite does not read the release's facts", r.Tag)
		}
	}
	// The newest release, by its tag or none; and through factsfile.ReadDict,
	// which reads whatever factsfile.Read reads.
	want := plainJSON(t, newest.Facts)
	for _, tag := range []string{newTag, ""} {
		f, err := factsfile.ReadSite(out, tag)
		if err != nil {
			t.Fatalf("factsfile.ReadSite(%q): %v", tag, err)
		}
		if !bytes.Equal(plainJSON(t, f), want) {
			t.Errorf("factsfile.ReadSite(%q) does not read the newest release's facts", tag)
		}
	}
	if f, err := factsfile.ReadDict(bytes.NewReader(read(newTag)), ref); err != nil || !bytes.Equal(plainJSON(t, f), want) {
		t.Errorf("factsfile.ReadDict does not read the newest release's own file: %v", err)
	}
	if _, err := factsfile.ReadSite(out, "v9.9.9"); err == nil {
		t.Error("factsfile.ReadSite of a release the site does not have succeeded")
	}
	// Each release's home page says how to open its file.
	files := readTree(t, out)
	for _, r := range rels {
		plain, patch := "<code>zstd -d facts.json.zst</code>", "<code>zstd -d ../"+newTag+"/facts.json.zst -o newest.json &amp;&amp; zstd -d --patch-from=newest.json facts.json.zst</code>"
		if r.Tag != newTag {
			plain, patch = patch, plain
		}
		for _, lang := range []string{"en", "ko"} {
			home := files[r.Tag+"/"+lang+"/"+homePage]
			if !strings.Contains(home, plain) || strings.Contains(home, patch) {
				t.Errorf("%s/%s home page: does not open its facts with %s", r.Tag, lang, plain)
			}
		}
	}

	again, _ := buildFactsReleases(t)
	for _, r := range rels {
		if data, err := os.ReadFile(filepath.Join(again, r.Tag, factsFile)); err != nil || !bytes.Equal(data, read(r.Tag)) {
			t.Errorf("%s: a second build wrote another %s, %v", r.Tag, factsFile, err)
		}
	}
}

// TestFactsFilePatchZstd: the zstd command reads an older release's
// facts.json.zst as the README says, with the newest's facts.json (zstd
// -d --patch-from), and cannot without. Skipped without zstd on PATH.
func TestFactsFilePatchZstd(t *testing.T) {
	if _, err := exec.LookPath("zstd"); err != nil {
		t.Skip("no zstd command")
	}
	out, rels := buildFactsReleases(t)
	zstdIn := func(dir string, args ...string) error {
		t.Helper()
		cmd := exec.Command("zstd", append([]string{"-q", "-f"}, args...)...)
		cmd.Dir = dir
		if o, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("zstd %v: %v\n%s", args, err, o)
		}
		return nil
	}
	for _, r := range rels[:len(rels)-1] {
		dir := filepath.Join(out, r.Tag)
		if err := zstdIn(dir, "-d", "facts.json.zst", "-o", filepath.Join(t.TempDir(), "x.json")); err == nil {
			t.Errorf("%s: zstd -d reads %s without the newest's facts", r.Tag, factsFile)
		}
		tmp := t.TempDir()
		if err := zstdIn(dir, "-d", "../"+newTag+"/facts.json.zst", "-o", filepath.Join(tmp, "newest.json")); err != nil {
			t.Fatal(err)
		}
		if err := zstdIn(dir, "-d", "--patch-from="+filepath.Join(tmp, "newest.json"), "facts.json.zst", "-o", filepath.Join(tmp, "x.json")); err != nil {
			t.Fatalf("%s: %v", r.Tag, err)
		}
		got, err := os.ReadFile(filepath.Join(tmp, "x.json"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, compactJSON(t, r.Facts)) {
			t.Errorf("%s: zstd -d --patch-from makes %d bytes that are not the release's compact JSON", r.Tag, len(got))
		}
	}
}

// TestFactsSizeCached: the size of facts.json.zst a Cache remembers is
// that of the file compressed against what it was: alone, or against
// one newest release's facts, not another's.
func TestFactsSizeCached(t *testing.T) {
	rels, opts := factsReleases(t)
	old, cur := rels[1].Input, rels[2].Input
	other := cur
	manyCalls(50)(&other)
	c := NewCache()
	size := func(newest *Input) int {
		t.Helper()
		b, err := prepare(old, opts)
		if err != nil {
			t.Fatal(err)
		}
		b.reuse = c
		if newest != nil {
			nb, err := prepare(*newest, opts)
			if err != nil {
				t.Fatal(err)
			}
			b.set = &releaseSet{rels: []*relIndex{{}, {}}, newest: newestOf(nb)}
			nb.set, b.self = b.set, 1
		}
		n, err := b.factsSize()
		if err != nil {
			t.Fatal(err)
		}
		data, err := b.factsFileData()
		if err != nil {
			t.Fatal(err)
		}
		if n != len(data) {
			t.Errorf("size %d, the file %d bytes", n, len(data))
		}
		return n
	}
	alone := size(nil)
	against := size(&cur)
	if against >= alone {
		t.Errorf("against the newest release's facts %d bytes, alone %d", against, alone)
	}
	if n := size(&other); n == against {
		t.Errorf("against other facts, %d bytes as against the newest's", n)
	}
	if n := size(nil); n != alone {
		t.Errorf("alone again, %d bytes, %d before", n, alone)
	}
}

// decodeDict is data's content, compressed with ref as a raw-content
// dictionary, as zstd -d --patch-from decodes it.
func decodeDict(data, ref []byte) ([]byte, error) {
	zr, err := zstd.NewReader(nil, zstd.WithDecoderDictRaw(0, ref))
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	return zr.DecodeAll(data, nil)
}
