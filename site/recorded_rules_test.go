package site

import (
	"strings"
	"testing"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/record"
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
		in.Symbols = append(in.Symbols,
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
