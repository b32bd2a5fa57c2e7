package record

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/klauspost/compress/zstd"

	"github.com/kubewalk/kubewalk/internal/disk/atomicfile"
)

// Recordings are kept in the cache as
// <CacheDir>/record/recordings/<tag>/<scenario>.json.
func recordingPath(cacheDir, tag, scenario string) string {
	return filepath.Join(cacheDir, "record", "recordings", tag, scenario+".json")
}

// Save writes rec into the cache, replacing an earlier recording of its
// release and scenario in one rename, and returns the file's path.
func Save(cacheDir string, rec *Recording) (string, error) {
	return write(recordingPath(cacheDir, rec.Tag, rec.Scenario), rec, false)
}

// SaveKept writes rec as the walkthroughs keep their recordings:
// dir/<tag>/<scenario>.json.zst, zstd at its best level, replacing an
// earlier one in one rename (a .json beside it, which Find would no longer
// read, is removed). It returns the file's path.
func SaveKept(dir string, rec *Recording) (string, error) {
	name, err := write(filepath.Join(dir, rec.Tag, rec.Scenario+".json.zst"), rec, true)
	if err != nil {
		return "", err
	}
	if err := os.Remove(strings.TrimSuffix(name, ".zst")); err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("record: %w", err)
	}
	return name, nil
}

// write writes rec to name in one rename, zstd-compressed when pack, once
// its release and scenario are names a file may have.
func write(name string, rec *Recording, pack bool) (string, error) {
	if err := checkNames(rec.Tag, rec.Scenario); err != nil {
		return "", err
	}
	data, err := rec.Marshal()
	if err != nil {
		return "", err
	}
	if pack {
		enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBestCompression), zstd.WithEncoderConcurrency(1))
		if err != nil {
			return "", err
		}
		data = enc.EncodeAll(data, nil)
		enc.Close()
	}
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return "", fmt.Errorf("record: %w", err)
	}
	if err := atomicfile.WriteFile(name, data, 0o644); err != nil {
		return "", fmt.Errorf("record: %w", err)
	}
	return name, nil
}

// ErrCacheIgnored marks the error Find returns with the kept recording
// (or nil) when the cached one cannot be used: damaged, of another format,
// or not the release's and scenario's. It is a miss, for the caller to log.
var ErrCacheIgnored = errors.New("cached recording not used")

// Find returns the recording of a release and scenario: the cache's (made
// by kubewalk record on this machine) or else the one shipped in builtin
// (walkthroughs.Recordings), or nil when there is neither. A cached file
// that is not a recording of that release and scenario does not hide the
// kept one: Find returns the kept one (or nil) and an error wrapping
// ErrCacheIgnored that names the file; the caller logs it once and goes
// on. Any other error is the kept recording's, or a scenario or tag that
// is not one.
func Find(cacheDir string, builtin fs.FS, tag, scenario string) (*Recording, error) {
	if err := checkNames(tag, scenario); err != nil {
		return nil, err
	}
	rec, cerr := Cached(cacheDir, tag, scenario)
	if rec != nil {
		return rec, nil
	}
	name, data, err := readKept(builtin, tag, scenario)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		rec = nil
	case err != nil:
		return nil, err
	default:
		if rec, err = Parse(name, data); err != nil {
			return nil, err
		}
		if err := rec.is(name, tag, scenario); err != nil {
			return nil, err
		}
	}
	if cerr != nil {
		return rec, fmt.Errorf("%w: %w", ErrCacheIgnored, cerr)
	}
	return rec, nil
}

// readKept reads the kept recording of a release and scenario from
// builtin: recordings/<tag>/<scenario>.json.zst (zstd, as they are kept
// in the repository), or else .json.
func readKept(builtin fs.FS, tag, scenario string) (string, []byte, error) {
	name := path.Join("recordings", tag, scenario+".json")
	packed, err := fs.ReadFile(builtin, name+".zst")
	if errors.Is(err, fs.ErrNotExist) {
		data, err := fs.ReadFile(builtin, name)
		return name, data, err
	}
	if err != nil {
		return name + ".zst", nil, err
	}
	data, err := unzstd(name+".zst", packed)
	return name + ".zst", data, err
}

// unzstd decompresses a kept recording, name its file.
func unzstd(name string, packed []byte) ([]byte, error) {
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(maxKept))
	if err != nil {
		return nil, err
	}
	defer dec.Close()
	data, err := dec.DecodeAll(packed, nil)
	if err != nil {
		return nil, fmt.Errorf("record: %s: %w", name, err)
	}
	return data, nil
}

// maxKept bounds what a kept recording may decompress to.
const maxKept = 64 << 20

// keptNames lists the release and scenario of every kept recording in
// builtin, from their file names.
func keptNames(builtin fs.FS) ([][2]string, error) {
	var out [][2]string
	for _, pat := range []string{"recordings/*/*.json", "recordings/*/*.json.zst"} {
		files, err := fs.Glob(builtin, pat)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			scenario := strings.TrimSuffix(strings.TrimSuffix(path.Base(f), ".zst"), ".json")
			out = append(out, [2]string{path.Base(path.Dir(f)), scenario})
		}
	}
	return out, nil
}

// Cached returns the cached recording of a release and scenario, or nil
// when there is none. A file there that is not a recording of that release
// and scenario (damaged, of another format, another's copied or edited) is
// an error naming it; so is a scenario that is not one of Scenarios or a
// tag that is not a plain name, before any file is read.
func Cached(cacheDir, tag, scenario string) (*Recording, error) {
	if err := checkNames(tag, scenario); err != nil {
		return nil, err
	}
	name := recordingPath(cacheDir, tag, scenario)
	rec, err := Load(name)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if err := rec.is(name, tag, scenario); err != nil {
		return nil, err
	}
	return rec, nil
}

// checkNames refuses a scenario that is not one of Scenarios and a tag
// that is not one path element: both name a file of the cache, and
// --scenario ../../x read any JSON file as a recording.
func checkNames(tag, scenario string) error {
	if _, err := scenarioNamed(scenario); err != nil || scenario == "" {
		return fmt.Errorf("record: no scenario %q (known: %s)", scenario, strings.Join(ScenarioNames(), ", "))
	}
	if tag == "" || tag == "." || tag == ".." || strings.ContainsAny(tag, `/\`) {
		return fmt.Errorf("record: %q is not a release tag", tag)
	}
	return nil
}

// is checks that the recording read from file name is of tag and
// scenario: a recording of v1.36.3 under v1.37.2 was shown as v1.37.2's
// run and matched to its code.
func (r *Recording) is(name, tag, scenario string) error {
	if r.Tag != tag || r.Scenario != scenario {
		return fmt.Errorf("%s: a recording of %s (scenario %s) where one of %s (scenario %q) belongs: record it again", name, short(r.Tag), short(r.Scenario), tag, scenario)
	}
	return nil
}

// short quotes s, cut to 64 bytes: it comes from a file anyone may have
// edited, and goes into a message.
func short(s string) string {
	if len(s) > 64 {
		return strconv.Quote(strings.ToValidUTF8(s[:64], "")) + "…"
	}
	return strconv.Quote(s)
}
