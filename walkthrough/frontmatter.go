package walkthrough

// Front matter: the YAML block between "---" lines at the top of a file.
// The go.abhg.dev frontmatter extension finds it; it is decoded here
// through a yaml.Node so each problem names its own line.

import (
	"slices"

	"github.com/yuin/goldmark/parser"
	"go.abhg.dev/goldmark/frontmatter"
	"gopkg.in/yaml.v3"
)

// Meta is a walkthrough's front matter.
type Meta struct {
	// Title is required.
	Title string `json:"title"`
	// Summary is one line for the home page.
	Summary string `json:"summary,omitempty"`
	// Order sorts walkthroughs (then ID); set in the English file only.
	Order int `json:"order,omitempty"`
	// Topics are tags; set in the English file only.
	Topics []string `json:"topics,omitempty"`
	// Participants are the sequence diagram's lifelines, left to right,
	// named as steps' from= and to= name them. A translation may list
	// translated names, one for one in the same order.
	Participants []string `json:"participants,omitempty"`

	// lines records the line of each key present.
	lines map[string]int
}

// frontMatterLine is where the front matter's YAML starts: it follows the
// opening "---" on line 1.
const frontMatterLine = 2

func decodeMeta(pc parser.Context, file string, errs *errorList) Meta {
	m := Meta{lines: map[string]int{}}
	data := frontmatter.Get(pc)
	if data == nil {
		errs.add(file, 1, 1, "missing front matter: the file must start with a --- block holding at least title:")
		return m
	}
	var doc yaml.Node
	if err := data.Decode(&doc); err != nil {
		errs.add(file, 1, 1, "front matter: %v", err)
		return m
	}
	if len(doc.Content) == 0 {
		errs.add(file, 1, 1, "front matter is empty: title: is required")
		return m
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		errs.add(file, root.Line+frontMatterLine-1, root.Column, "front matter must be a mapping of key: value")
		return m
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		line, col := k.Line+frontMatterLine-1, k.Column
		if _, dup := m.lines[k.Value]; dup {
			errs.add(file, line, col, "front matter key %q given twice", k.Value)
			continue
		}
		m.lines[k.Value] = line
		var err error
		switch k.Value {
		case "title":
			err = v.Decode(&m.Title)
		case "summary":
			err = v.Decode(&m.Summary)
		case "order":
			err = v.Decode(&m.Order)
		case "topics":
			err = v.Decode(&m.Topics)
		case "participants":
			err = v.Decode(&m.Participants)
			if err == nil {
				seen := map[string]bool{}
				for _, p := range m.Participants {
					if p == "" || seen[p] {
						errs.add(file, line, col, "participants must be distinct and not empty: %q", p)
						break
					}
					seen[p] = true
				}
			}
		default:
			errs.add(file, line, col, "unknown front matter key %q (want title, summary, order, topics, participants)", k.Value)
			continue
		}
		if err != nil {
			errs.add(file, line, col, "front matter %s: %v", k.Value, err)
		}
	}
	if m.Title == "" {
		errs.add(file, 1, 1, "front matter has no title")
	}
	return m
}

func (m Meta) has(key string) bool { _, ok := m.lines[key]; return ok }

func (m Meta) hasParticipant(p string) bool { return slices.Contains(m.Participants, p) }
