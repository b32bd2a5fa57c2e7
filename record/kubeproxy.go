package record

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"
)

// kubeProxyID is kube-proxy's identity, the user the system:node-proxier
// ClusterRoleBinding of the API server's bootstrap policy names.
var kubeProxyID = identity{"kube-proxy", "system:kube-proxy", nil}

// Rules are what kube-proxy wrote into the run's network namespace, read
// back once the scenario's Service had its endpoints in them.
type Rules struct {
	// Mode is kube-proxy's --proxy-mode: "nftables".
	Mode string `json:"mode"`
	// Command is what read them ("nft list ruleset"), inside the
	// namespace, where nothing but kube-proxy writes rules.
	Command string `json:"command"`
	// Text is its output, as it printed it.
	Text string `json:"text"`
}

// proxyMode is the mode kube-proxy runs in. nftables is the mode the
// project's own docs point new clusters to, and its ruleset reads as one
// text: a table per family, chains named after each Service and
// endpoint. It is beta and on by default from v1.31, GA in v1.33; v1.29
// and v1.30 have it as alpha behind the NFTablesProxyMode gate, which
// kubeProxyArgs turns on, so that every release shows the same kind of
// rules (iptables mode would show different code at the older ones).
const proxyMode = "nftables"

// kubeProxyArgs are kube-proxy's flags. Its healthz and metrics servers
// listen inside the namespace, on its loopback; conntrack limits are the
// kernel's (0: leave alone), as a namespace's cannot all be set.
func kubeProxyArgs(tag, kubeconfig string) []string {
	args := []string{
		"--kubeconfig=" + kubeconfig,
		"--hostname-override=" + nodeName,
		"--proxy-mode=" + proxyMode,
		"--healthz-bind-address=127.0.0.1:10256",
		"--metrics-bind-address=127.0.0.1:10249",
		"--conntrack-max-per-core=0",
		"--conntrack-tcp-timeout-established=0",
		"--conntrack-tcp-timeout-close-wait=0",
	}
	if m := releaseRE.FindStringSubmatch(tag); m != nil {
		if minor, _ := strconv.Atoi(m[2]); m[1] == "1" && minor < 31 {
			args = append(args, "--feature-gates=NFTablesProxyMode=true")
		}
	}
	return args
}

// startKubeProxy starts the release's kube-proxy in the run's network
// namespace, its API server a proxy inside the namespace to the real one,
// and waits for its first rules.
func (r *run) startKubeProxy(ctx context.Context) error {
	inner, err := r.netns.proxyTo(net.JoinHostPort("127.0.0.1", strconv.Itoa(r.apiPort)))
	if err != nil {
		return err
	}
	// The proxy listens on 127.0.0.1 too (another loopback), which the
	// API server's certificate names.
	kc, err := r.pki.kubeconfig(kubeProxyID, "https://"+inner)
	if err != nil {
		return fmt.Errorf("record: certificates: %w", err)
	}
	p, err := r.startWith("kube-proxy", r.netns.start, r.bins.Path("kube-proxy"), kubeProxyArgs(r.bins.Tag, kc)...)
	if err != nil {
		return err
	}
	return r.waitFor(ctx, p, "its first rules (nft list table ip kube-proxy)", time.Minute, func(ctx context.Context) (bool, error) {
		_, err := r.netns.output(ctx, "nft", "list", "table", "ip", "kube-proxy")
		return err == nil, err
	})
}

// ruleset reads the namespace's rules.
func (r *run) ruleset(ctx context.Context) (*Rules, error) {
	out, err := r.netns.output(ctx, "nft", "list", "ruleset")
	if err != nil {
		return nil, fmt.Errorf("record: nft list ruleset in the run's network namespace: %w", err)
	}
	return &Rules{Mode: proxyMode, Command: "nft list ruleset", Text: string(out)}, nil
}

// rulesBoundary passes once the scenario's Service has ready endpoints
// and kube-proxy's rules hold its ClusterIP and port and each endpoint's
// address.
func rulesBoundary(r *run, sc Scenario) boundary {
	return boundary{"rules", func(ctx context.Context) (bool, error) {
		var svc struct {
			Spec struct {
				ClusterIP string `json:"clusterIP"`
				Ports     []struct {
					Port int `json:"port"`
				} `json:"ports"`
			} `json:"spec"`
		}
		if err := r.getJSON(ctx, "/api/v1/namespaces/"+sc.Namespace+"/services/"+sc.Service, &svc); err != nil {
			return false, err
		}
		var slices struct {
			Items []struct {
				Endpoints []struct {
					Addresses  []string `json:"addresses"`
					Conditions struct {
						Ready *bool `json:"ready"`
					} `json:"conditions"`
				} `json:"endpoints"`
			} `json:"items"`
		}
		if err := r.getJSON(ctx, "/apis/discovery.k8s.io/v1/namespaces/"+sc.Namespace+"/endpointslices?labelSelector=kubernetes.io/service-name%3D"+sc.Service, &slices); err != nil {
			return false, err
		}
		want := []string{svc.Spec.ClusterIP}
		for _, p := range svc.Spec.Ports {
			want = append(want, fmt.Sprintf("%s . tcp . %d", svc.Spec.ClusterIP, p.Port))
		}
		ready := 0
		for _, s := range slices.Items {
			for _, e := range s.Endpoints {
				if e.Conditions.Ready != nil && *e.Conditions.Ready {
					ready++
					want = append(want, e.Addresses...)
				}
			}
		}
		if svc.Spec.ClusterIP == "" || ready < sc.Replicas {
			return false, nil
		}
		rules, err := r.ruleset(ctx)
		if err != nil {
			return false, err
		}
		for _, w := range want {
			if !strings.Contains(rules.Text, w) {
				return false, nil
			}
		}
		return true, nil
	}}
}
