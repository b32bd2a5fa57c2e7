package templates

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"gopkg.in/yaml.v3"
)

// Messages reads the UI text catalog: for every i18n/<lang>.yaml of FS,
// the language's mapping of keys to texts. English (en.yaml) must be
// there: it is the fallback for a key a language lacks.
func Messages() (map[string]map[string]string, error) { return readMessages(FS) }

// readMessages reads every i18n/<lang>.yaml of fsys: a mapping of keys to
// texts.
func readMessages(fsys fs.FS) (map[string]map[string]string, error) {
	files, err := fs.Glob(fsys, "i18n/*.yaml")
	if err != nil {
		return nil, err
	}
	ms := map[string]map[string]string{}
	for _, f := range files {
		data, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, err
		}
		m := map[string]string{}
		if err := yaml.Unmarshal(data, &m); err != nil {
			return nil, fmt.Errorf("site: templates/%s: %w", f, err)
		}
		ms[strings.TrimSuffix(path.Base(f), ".yaml")] = m
	}
	if ms["en"] == nil {
		return nil, errors.New("site: templates/i18n has no en.yaml")
	}
	return ms, nil
}
