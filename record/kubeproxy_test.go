package record

import (
	"slices"
	"strings"
	"testing"
)

// kube-proxy's nftables mode is alpha before v1.31: its gate is turned on
// there and only there.
func TestKubeProxyArgs(t *testing.T) {
	const gate = "--feature-gates=NFTablesProxyMode=true"
	for tag, want := range map[string]bool{"v1.29.15": true, "v1.30.14": true, "v1.31.0": false, "v1.34.4": false, "v1.37.2": false} {
		args := kubeProxyArgs(tag, "kc")
		if got := slices.Contains(args, gate); got != want {
			t.Errorf("%s: gate %v, want %v (%v)", tag, got, want, args)
		}
		for _, a := range []string{"--proxy-mode=nftables", "--hostname-override=" + nodeName, "--kubeconfig=kc", "--healthz-bind-address=127.0.0.1:10256", "--metrics-bind-address=127.0.0.1:10249"} {
			if !slices.Contains(args, a) {
				t.Errorf("%s: no %s in %v", tag, a, args)
			}
		}
	}
}

// Only a scenario with a Service runs kube-proxy, and its Service is in
// its manifest.
func TestServiceScenario(t *testing.T) {
	for _, sc := range Scenarios {
		if (sc.Service != "") != (sc.Name == "service") {
			t.Errorf("scenario %s: Service %q", sc.Name, sc.Service)
		}
	}
	sc, err := scenarioNamed("service")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"kind: Service", "name: " + sc.Service, "clusterIP: 10.0.0.80", "port: 80", "targetPort: 80", "app: nginx"} {
		if !strings.Contains(sc.Manifest, want) {
			t.Errorf("the service manifest lacks %q", want)
		}
	}
}
