package site

import (
	"strings"
	"testing"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/record"
	"github.com/kubewalk/kubewalk/walkthrough"
)

// TestRecordedRules: a service run's page shows the rules kube-proxy
// wrote, as text, and links the names in them to the proxier's
// constants, found by name in the symbol index.
func TestRecordedRules(t *testing.T) {
	const proxier = "pkg/proxy/nftables/proxier.go"
	src := "package nftables\n\nconst (\n\t// service dispatch\n\tservicesChain = \"services\"\n\n\tservicePortChainNamePrefix = \"service-\"\n)\n"
	rec := fixtureRecording()
	rec.Scenario = "service"
	rec.Rules = &record.Rules{Mode: "nftables", Command: "nft list ruleset", Text: "table ip kube-proxy {\n\tchain services {\n\t\tip daddr . meta l4proto . th dport vmap @service-ips\n\t}\n\n\tchain service-2ETI3MDI-default/nginx/tcp/http {\n\t\tmeta l4proto tcp dnat to 192.168.192.168:80 <script>\n\t}\n}\n"}
	out, _ := buildFixture(t, func(in *Input) {
		in.Recordings = []*record.Recording{fixtureRecording(), rec}
		addSymbols(in,
			fact.Symbol{Name: "k8s.io/kubernetes/pkg/proxy/nftables.servicesChain", Kind: "const", Decl: fact.Location{Path: proxier, StartLine: 4, EndLine: 5}},
			fact.Symbol{Name: "k8s.io/kubernetes/pkg/proxy/nftables.servicePortChainNamePrefix", Kind: "const", Decl: fact.Location{Path: proxier, StartLine: 7, EndLine: 7}},
		)
		read := in.ReadFile
		in.ReadFile = func(p string) ([]byte, error) {
			if p == proxier {
				return []byte(src), nil
			}
			return read(p)
		}
	})
	files := readTree(t, out)
	page := files[RecordedPage("service")]
	_, rules, ok := strings.Cut(page, `id="rules"`)
	if !ok {
		t.Fatalf("%s has no rules section", RecordedPage("service"))
	}
	rules, _, _ = strings.Cut(rules, `id="etcd"`)
	for _, want := range []string{
		"Rules kube-proxy wrote",
		"network namespace of the run",
		"chain <code>services</code>",
		"nftables.servicesChain",
		"chain <code>service-2ETI3MDI-default/nginx/tcp/http</code> · named from",
		"nftables.servicePortChainNamePrefix",
		"github.com/kubernetes/kubernetes/blob/" + fixtureTag + "/" + proxier + "#L4-L5",
		"dnat to 192.168.192.168:80 &lt;script&gt;",
	} {
		if !strings.Contains(rules, want) {
			t.Errorf("the rules section lacks %q:\n%s", want, rules)
		}
	}
	if strings.Contains(files[RecordedPage("deployment")], `id="rules"`) {
		t.Error("the deployment run, which has no rules, shows a rules section")
	}
}

// TestStepRules: a walkthrough step that cites a function of the nftables
// proxier shows the rules a recorded run's kube-proxy wrote, escaped, and
// links the run's rules section; a step that does not, and every step
// when no run has rules, shows none.
func TestStepRules(t *testing.T) {
	const proxier = "pkg/proxy/nftables/proxier.go"
	sync := fact.Symbol{Name: "k8s.io/kubernetes/pkg/proxy/nftables.Proxier.syncProxyRules", Kind: "method",
		Decl: fact.Location{Path: proxier, StartLine: 1, EndLine: 3}, Body: fact.Location{Path: proxier, StartLine: 1, EndLine: 3}}
	build := func(rules *record.Rules) string {
		rec := fixtureRecording()
		rec.Scenario = "service"
		rec.Rules = rules
		out, _ := buildFixture(t, func(in *Input) {
			in.Recordings = []*record.Recording{fixtureRecording(), rec}
			addSymbols(in, sync)
			read := in.ReadFile
			in.ReadFile = func(p string) ([]byte, error) {
				if p == proxier {
					return []byte("package nftables\n\nfunc (proxier *Proxier) syncProxyRules() {}\n"), nil
				}
				return read(p)
			}
			for _, d := range in.Docs {
				if d.ID == "deployment" {
					d.Steps[1].Refs = append(d.Steps[1].Refs, walkthrough.Ref{Text: sync.Name, Line: 1, Ref: fact.Ref{Alternates: []string{sync.Name}}, Resolved: fact.Resolved{Symbol: sync}})
				}
			}
		})
		return readTree(t, out)["walkthroughs/deployment.html"]
	}
	page := build(&record.Rules{Mode: "nftables", Command: "nft list ruleset", Text: "table ip kube-proxy {\n\tchain services <b>\n}\n"})
	if n := strings.Count(page, `<details class="observed rules">`); n != 1 {
		t.Fatalf("%d rules panels, want one, under the step that cites syncProxyRules", n)
	}
	_, panel, _ := strings.Cut(page, `<details class="observed rules">`)
	panel, _, _ = strings.Cut(panel, `</details>`)
	for _, want := range []string{"The rules this code wrote in a recorded run", "<code>service</code>", `href="../` + RecordedPage("service") + `#rules"`, "chain services &lt;b&gt;"} {
		if !strings.Contains(panel, want) {
			t.Errorf("the rules panel lacks %q:\n%s", want, panel)
		}
	}
	if _, step, _ := strings.Cut(page, `id="step-2`); !strings.Contains(step[:strings.Index(step, "</section>")], "observed rules") {
		t.Error("the rules panel is not under the step that cites syncProxyRules")
	}
	if strings.Contains(build(nil), "observed rules") {
		t.Error("a rules panel without a run that has rules")
	}
}
