package site

import (
	"strings"

	"github.com/kubewalk/kubewalk/internal/derive/cited"
	"github.com/kubewalk/kubewalk/internal/derive/runlog"
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

// recordedRules returns the section's view, each name linked to the
// proxier's constant that makes it (runlog.RuleNames); nil for a
// recording without rules.
func (b *builder) recordedRules(p string, rules *record.Rules) *rulesView {
	if rules == nil {
		return nil
	}
	v := &rulesView{Mode: rules.Mode, Command: rules.Command, Text: rules.Text}
	for _, rn := range runlog.RuleNames(rules.Text, b.in.Symbols, b.in.ReadFile) {
		n := ruleName{Name: rn.Name, Kind: rn.Kind, Prefix: rn.Prefix}
		if s := rn.Const; s.Name != "" {
			n.Symbol, n.Href = b.shortName(s.Name, s.Decl), b.srcLink(p, s.Decl.Path, s.Decl.StartLine, s.Decl.EndLine)
		}
		v.Names = append(v.Names, n)
	}
	return v
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
	for _, fn := range cited.Funcs(s) {
		cites = cites || strings.HasPrefix(fn.Name, runlog.NftablesProxier)
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
