package record

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"

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
	data, err := rec.Marshal()
	if err != nil {
		return "", err
	}
	name := recordingPath(cacheDir, rec.Tag, rec.Scenario)
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return "", fmt.Errorf("record: %w", err)
	}
	if err := atomicfile.WriteFile(name, data, 0o644); err != nil {
		return "", fmt.Errorf("record: %w", err)
	}
	return name, nil
}

// Find returns the recording of a release and scenario: the cache's (made
// by kubewalk record on this machine) or else the one shipped in builtin
// (walkthroughs.Recordings), or nil when there is neither.
func Find(cacheDir string, builtin fs.FS, tag, scenario string) (*Recording, error) {
	if rec, err := Cached(cacheDir, tag, scenario); rec != nil || err != nil {
		return rec, err
	}
	name := path.Join("recordings", tag, scenario+".json")
	data, err := fs.ReadFile(builtin, name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return Parse(name, data)
}

// Cached returns the cached recording of a release and scenario, or nil
// when there is none.
func Cached(cacheDir, tag, scenario string) (*Recording, error) {
	rec, err := Load(recordingPath(cacheDir, tag, scenario))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	return rec, err
}
