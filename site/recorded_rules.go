package site

import (
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/record"
	"github.com/kubewalk/kubewalk/walkthrough"
)

// rulesView is the "Rules kube-proxy wrote" section of a Recorded run
// page: the ruleset the release's kube-proxy wrote in the run's network
// namespace (record.Rules), as nft printed it, and for each table,
// chain, set and map it names the constant of the proxier that names it.
type rulesView struct {
	Mode, Command, Text string
	Names               []ruleName
}

// ruleName is a name of the ruleset and the constant that makes it:
// Symbol links to its declaration; Prefix says the constant is the
// start of per-Service names ("service-", "endpoint-").
type ruleName struct {
	Name, Kind   string
	Symbol, Href string
	Prefix       bool
}

// nftablesProxier is the package whose constants name kube-proxy's
// nftables objects.
const nftablesProxier = "k8s.io/kubernetes/pkg/proxy/nftables."

// rulesDecl matches the objects of nft list ruleset: "table ip
// kube-proxy {", "chain services {", "map service-ips {".
var rulesDecl = regexp.MustCompile(`^\s*(table|chain|set|map) (?:(?:ip6?|inet) )?(\S+) \{$`)

// recordedRules returns the section's view; nil for a recording without
// rules.
func (b *builder) recordedRules(p string, rules *record.Rules) *rulesView {
	if rules == nil {
		return nil
	}
	v := &rulesView{Mode: rules.Mode, Command: rules.Command, Text: rules.Text}
	consts := b.proxierConsts()
	seen := map[string]bool{}
	for _, line := range strings.Split(rules.Text, "\n") {
		m := rulesDecl.FindStringSubmatch(line)
		if m == nil || seen[m[1]+" "+m[2]] {
			continue
		}
		seen[m[1]+" "+m[2]] = true
		n := ruleName{Name: m[2], Kind: m[1]}
		if s, ok := consts[m[2]]; ok {
			n.Symbol, n.Href = b.shortName(s.sym, s.decl), b.srcLink(p, s.decl.Path, s.decl.StartLine, s.decl.EndLine)
		} else {
			// The longest constant the name starts with, when it ends
			// in "-": a per-Service chain's prefix.
			best := ""
			for val := range consts {
				if strings.HasSuffix(val, "-") && strings.HasPrefix(m[2], val) && len(val) > len(best) {
					best = val
				}
			}
			if best != "" {
				s := consts[best]
				n.Symbol, n.Href, n.Prefix = b.shortName(s.sym, s.decl), b.srcLink(p, s.decl.Path, s.decl.StartLine, s.decl.EndLine), true
			}
		}
		v.Names = append(v.Names, n)
	}
	return v
}

// proxierConst is a string constant of the nftables proxier.
type proxierConst struct {
	sym  string
	decl fact.Location
}

// proxierConsts maps the values of the nftables proxier's string
// constants to them: each constant is found in the symbol index by its
// package, and its value read from its declaration's line in the tree.
func (b *builder) proxierConsts() map[string]proxierConst {
	out := map[string]proxierConst{}
	if b.in.ReadFile == nil {
		return out
	}
	files := map[string][]string{}
	var syms []fact.Symbol
	for _, s := range b.in.Symbols {
		if s.Kind == "const" && strings.HasPrefix(s.Name, nftablesProxier) && !strings.Contains(strings.TrimPrefix(s.Name, nftablesProxier), ".") {
			syms = append(syms, s)
		}
	}
	sort.Slice(syms, func(i, j int) bool { return syms[i].Name < syms[j].Name })
	for _, s := range syms {
		lines, ok := files[s.Decl.Path]
		if !ok {
			data, err := b.in.ReadFile(s.Decl.Path)
			if err == nil {
				lines = strings.Split(string(data), "\n")
			}
			files[s.Decl.Path] = lines
		}
		// The declaration's last line holds "name = "value"" (a doc
		// comment may come before it).
		i := s.Decl.EndLine - 1
		if i < 0 || i >= len(lines) {
			continue
		}
		name := s.Name[strings.LastIndexByte(s.Name, '.')+1:]
		_, rest, ok := strings.Cut(lines[i], name)
		if !ok {
			continue
		}
		rest = strings.TrimSpace(rest)
		lit, ok := strings.CutPrefix(rest, "=")
		if !ok {
			continue
		}
		val, err := strconv.Unquote(strings.TrimSpace(lit))
		if err != nil || val == "" {
			continue
		}
		if _, dup := out[val]; !dup {
			out[val] = proxierConst{sym: s.Name, decl: s.Decl}
		}
	}
	return out
}

// stepRulesView is the rules panel under a walkthrough step that cites
// code of the nftables proxier: the ruleset that code wrote in a recorded
// run, and a link to that run's rules section.
type stepRulesView struct {
	Scenario, Text, Href string
}

// stepRules returns step s's rules panel, nil when s cites no function of
// the nftables proxier or no recorded run has rules.
func (b *builder) stepRules(p string, s walkthrough.Step) *stepRulesView {
	cites := false
	for _, fn := range stepFuncs(s, nil, map[string]bool{}) {
		cites = cites || strings.HasPrefix(fn.Name, nftablesProxier)
	}
	if !cites {
		return nil
	}
	for _, rec := range b.in.Recordings {
		if rec.Rules != nil {
			return &stepRulesView{Scenario: rec.Scenario, Text: rec.Rules.Text, Href: b.link(p, RecordedPage(rec.Scenario), "rules")}
		}
	}
	return nil
}
