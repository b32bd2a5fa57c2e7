package runlog

import (
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// NftablesProxier is the package whose constants name kube-proxy's
// nftables objects.
const NftablesProxier = "k8s.io/kubernetes/pkg/proxy/nftables."

// rulesDecl matches the objects of nft list ruleset: "table ip
// kube-proxy {", "chain services {", "map service-ips {".
var rulesDecl = regexp.MustCompile(`^\s*(table|chain|set|map) (?:(?:ip6?|inet) )?(\S+) \{$`)

// RuleName is a name the ruleset declares and the constant of the
// proxier that makes it.
type RuleName struct {
	// Kind is "table", "chain", "set" or "map".
	Name, Kind string
	// Const is the constant whose value is the name, or, when Prefix,
	// the start of it (a per-Service name: "service-", "endpoint-");
	// zero when none is.
	Const  fact.Symbol
	Prefix bool
}

// RuleNames are the tables, chains, sets and maps ruleset (nft list
// ruleset's text) declares, each once in the order it first does, with
// the nftables proxier's constant that names it: its value, else the
// longest value ending in "-" the name starts with. The constants are
// found among symbols by their package, their values read from their
// declarations' lines in the tree through readFile (nil: none found).
func RuleNames(ruleset string, symbols []fact.Symbol, readFile func(string) ([]byte, error)) []RuleName {
	consts := proxierConsts(symbols, readFile)
	var out []RuleName
	seen := map[string]bool{}
	for _, line := range strings.Split(ruleset, "\n") {
		m := rulesDecl.FindStringSubmatch(line)
		if m == nil || seen[m[1]+" "+m[2]] {
			continue
		}
		seen[m[1]+" "+m[2]] = true
		n := RuleName{Name: m[2], Kind: m[1]}
		if s, ok := consts[m[2]]; ok {
			n.Const = s
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
				n.Const, n.Prefix = consts[best], true
			}
		}
		out = append(out, n)
	}
	return out
}

// proxierConsts maps the values of the nftables proxier's string
// constants to them: each constant is found in symbols by its package,
// and its value read from its declaration's line in the tree.
func proxierConsts(symbols []fact.Symbol, readFile func(string) ([]byte, error)) map[string]fact.Symbol {
	out := map[string]fact.Symbol{}
	if readFile == nil {
		return out
	}
	files := map[string][]string{}
	var syms []fact.Symbol
	for _, s := range symbols {
		if s.Kind == "const" && strings.HasPrefix(s.Name, NftablesProxier) && !strings.Contains(strings.TrimPrefix(s.Name, NftablesProxier), ".") {
			syms = append(syms, s)
		}
	}
	sort.Slice(syms, func(i, j int) bool { return syms[i].Name < syms[j].Name })
	for _, s := range syms {
		lines, ok := files[s.Decl.Path]
		if !ok {
			data, err := readFile(s.Decl.Path)
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
			out[val] = s
		}
	}
	return out
}
