package explain

import (
	"strings"
)

// Component is who reported an event or made a request, and the package
// directories of the tree its code lives in.
type Component struct {
	// Name is as the cluster spells it: "deployment-controller",
	// "default-scheduler", "kubelet", "kubectl".
	Name string `json:"name"`
	// Dirs are repository directories ("pkg/controller/deployment"); a
	// call site in one of them (or below) belongs to the component. Empty
	// when the component is not part of the tree (a user's client).
	Dirs []string `json:"dirs,omitempty"`
	// From says where the name came from: "source", "object kind",
	// "username", "user agent", "code".
	From string `json:"from"`
}

// controllerDirs maps the names controllers report events and
// authenticate under (their service account, "<name>-controller" with
// --use-service-account-credentials) to their package directories, where
// the name does not say it: the generic rule is
// "<x>-controller" → pkg/controller/<x without dashes>.
var controllerDirs = map[string][]string{
	"daemonset-controller":                 {"pkg/controller/daemon"},
	"node-controller":                      {"pkg/controller/nodelifecycle", "pkg/controller/nodeipam"},
	"nodelifecycle-controller":             {"pkg/controller/nodelifecycle"},
	"node-ipam-controller":                 {"pkg/controller/nodeipam"},
	"horizontal-pod-autoscaler":            {"pkg/controller/podautoscaler"},
	"persistentvolume-controller":          {"pkg/controller/volume/persistentvolume"},
	"persistent-volume-binder":             {"pkg/controller/volume/persistentvolume"},
	"attachdetach-controller":              {"pkg/controller/volume/attachdetach"},
	"expand-controller":                    {"pkg/controller/volume/expand"},
	"pvc-protection-controller":            {"pkg/controller/volume/pvcprotection"},
	"pv-protection-controller":             {"pkg/controller/volume/pvprotection"},
	"endpoint-controller":                  {"pkg/controller/endpoint"},
	"endpointslice-controller":             {"pkg/controller/endpointslice", "staging/src/k8s.io/endpointslice"},
	"endpointslicemirroring-controller":    {"pkg/controller/endpointslicemirroring"},
	"disruption-controller":                {"pkg/controller/disruption"},
	"ttl-after-finished-controller":        {"pkg/controller/ttlafterfinished"},
	"taint-eviction-controller":            {"pkg/controller/tainteviction"},
	"service-controller":                   {"staging/src/k8s.io/cloud-provider/controllers/service"},
	"cronjob-controller":                   {"pkg/controller/cronjob"},
	"job-controller":                       {"pkg/controller/job"},
	"statefulset-controller":               {"pkg/controller/statefulset"},
	"replicaset-controller":                {"pkg/controller/replicaset"},
	"replication-controller":               {"pkg/controller/replication", "pkg/controller/replicaset"},
	"deployment-controller":                {"pkg/controller/deployment"},
	"namespace-controller":                 {"pkg/controller/namespace"},
	"garbage-collector-controller":         {"pkg/controller/garbagecollector"},
	"generic-garbage-collector":            {"pkg/controller/garbagecollector"},
	"resourcequota-controller":             {"pkg/controller/resourcequota"},
	"serviceaccount-controller":            {"pkg/controller/serviceaccount"},
	"certificate-controller":               {"pkg/controller/certificates"},
	"bootstrap-signer":                     {"pkg/controller/bootstrap"},
	"token-cleaner":                        {"pkg/controller/bootstrap"},
	"device-taint-eviction-controller":     {"pkg/controller/devicetainteviction"},
	"resource-claim-controller":            {"pkg/controller/resourceclaim"},
	"selinux-warning-controller":           {"pkg/controller/volume/selinuxwarning"},
	"ephemeral-volume-controller":          {"pkg/controller/volume/ephemeral"},
	"clusterrole-aggregation-controller":   {"pkg/controller/clusterroleaggregation"},
	"root-ca-cert-publisher":               {"pkg/controller/certificates/rootcacertpublisher"},
	"legacy-service-account-token-cleaner": {"pkg/controller/serviceaccount"},
}

// componentDirs maps the other components' names to their directories.
var componentDirs = map[string][]string{
	"default-scheduler":        {"pkg/scheduler"},
	"kube-scheduler":           {"pkg/scheduler"},
	"scheduler":                {"pkg/scheduler"},
	"kubelet":                  {"pkg/kubelet"},
	"kube-proxy":               {"pkg/proxy", "cmd/kube-proxy"},
	"kube-controller-manager":  {"pkg/controller", "cmd/kube-controller-manager"},
	"kube-apiserver":           {"staging/src/k8s.io/apiserver", "pkg/registry", "pkg/controlplane"},
	"kubectl":                  {"staging/src/k8s.io/kubectl", "staging/src/k8s.io/cli-runtime"},
	"cloud-controller-manager": {"staging/src/k8s.io/cloud-provider"},
}

// kindController maps an involved object's kind to the controller that
// reports events about objects of that kind, when kubectl's table carries
// no source: "replicaset/nginx-x  Created pod: …" was reported by the
// replicaset controller. Kinds several components report on (pods, nodes)
// are left out.
var kindController = map[string]string{
	"deployment":              "deployment-controller",
	"replicaset":              "replicaset-controller",
	"replicationcontroller":   "replication-controller",
	"statefulset":             "statefulset-controller",
	"daemonset":               "daemonset-controller",
	"job":                     "job-controller",
	"cronjob":                 "cronjob-controller",
	"horizontalpodautoscaler": "horizontal-pod-autoscaler",
	"poddisruptionbudget":     "disruption-controller",
	"persistentvolumeclaim":   "persistentvolume-controller",
	"persistentvolume":        "persistentvolume-controller",
	"endpoints":               "endpoint-controller",
}

// dirsOf returns the directories of a component name, nil when unknown.
// serviceAccountDirs are the service accounts kube-controller-manager
// gives controllers whose names lead to their package neither by the
// tables above nor by the -controller rule. They name a request's
// component (auditComponent), never code's (codeComponent): a controller
// is called by its own name.
var serviceAccountDirs = map[string][]string{
	"daemon-set-controller":                               {"pkg/controller/daemon"},
	"pod-garbage-collector":                               {"pkg/controller/podgc"},
	"storage-version-garbage-collector":                   {"pkg/controller/storageversiongc"},
	"tokens-controller":                                   {"pkg/controller/serviceaccount"},
	"kube-apiserver-serving-clustertrustbundle-publisher": {"pkg/controller/certificates/clustertrustbundlepublisher"},
	"podcertificaterequestcleaner":                        {"pkg/controller/certificates/cleaner"},
	"volumeattributesclass-protection-controller":         {"pkg/controller/volume/vacprotection"},
}

func dirsOf(name string) []string {
	if d, ok := componentDirs[name]; ok {
		return d
	}
	if d, ok := controllerDirs[name]; ok {
		return d
	}
	if d, ok := serviceAccountDirs[name]; ok {
		return d
	}
	if x, ok := strings.CutSuffix(name, "-controller"); ok && x != "" {
		return []string{"pkg/controller/" + strings.ReplaceAll(x, "-", "")}
	}
	return nil
}

// nameable reports whether a call site in package directory p could lie
// in a directory dirsOf returns for some name: one of the tables', or one
// the "<x>-controller" rule makes, which is always below pkg/controller/.
// Index leaves the other directories out: no component could ask for them.
func nameable(p string) bool {
	if strings.HasPrefix(p+"/", "pkg/controller/") {
		return true
	}
	for _, m := range []map[string][]string{componentDirs, controllerDirs} {
		for _, ds := range m {
			if inDirs(p+"/", ds) {
				return true
			}
		}
	}
	return false
}

// eventComponent returns the component that reported e: its source, else
// the controller its object's kind implies; ok false when neither tells.
func eventComponent(e *EventRecord) (Component, bool) {
	if e.Component != "" {
		return Component{Name: e.Component, Dirs: dirsOf(e.Component), From: "source"}, true
	}
	if c, ok := kindController[e.Kind]; ok {
		return Component{Name: c, Dirs: dirsOf(c), From: "object kind"}, true
	}
	return Component{}, false
}

// auditComponent returns who made an audited request, from the user name
// first (it cannot be spoofed by the client, the user agent can), then the
// user agent.
//
//	system:serviceaccount:kube-system:deployment-controller → deployment-controller
//	system:kube-scheduler                                   → kube-scheduler
//	system:node:worker-1                                    → kubelet
//	kube-controller-manager/v1.25.8 (linux/amd64) kubernetes/83fe90d/system:serviceaccount:kube-system:replicaset-controller
//	                                                        → replicaset-controller
//	kubectl/v1.26.1 (darwin/arm64) kubernetes/8f94681      → kubectl
func auditComponent(a *AuditRecord) (Component, bool) {
	u := a.Username
	switch {
	case strings.HasPrefix(u, "system:serviceaccount:kube-system:"):
		name := strings.TrimPrefix(u, "system:serviceaccount:kube-system:")
		if d := dirsOf(name); d != nil {
			return Component{Name: name, Dirs: d, From: "username"}, true
		}
	case u == "system:kube-scheduler":
		return Component{Name: "kube-scheduler", Dirs: dirsOf("kube-scheduler"), From: "username"}, true
	case u == "system:kube-controller-manager":
		// Without per-controller credentials every controller is this
		// user; the user agent may still name the controller.
		if c, ok := agentComponent(a.UserAgent); ok && c.Name != "kube-controller-manager" {
			return c, true
		}
		return Component{Name: "kube-controller-manager", Dirs: dirsOf("kube-controller-manager"), From: "username"}, true
	case u == "system:kube-proxy":
		return Component{Name: "kube-proxy", Dirs: dirsOf("kube-proxy"), From: "username"}, true
	case strings.HasPrefix(u, "system:node:"):
		return Component{Name: "kubelet", Dirs: dirsOf("kubelet"), From: "username"}, true
	case u == "system:apiserver":
		return Component{Name: "kube-apiserver", Dirs: dirsOf("kube-apiserver"), From: "username"}, true
	}
	return agentComponent(a.UserAgent)
}

// agentComponent reads a client-go user agent:
// "<binary>/<version> (<os>/<arch>) kubernetes/<commit>[/<suffix>]".
// kube-controller-manager appends the controller's service account, the
// scheduler "scheduler", and others a component name.
func agentComponent(ua string) (Component, bool) {
	if ua == "" {
		return Component{}, false
	}
	bin, _, _ := strings.Cut(ua, "/")
	bin = strings.TrimSpace(bin)
	if i := strings.Index(ua, " kubernetes/"); i >= 0 {
		rest := ua[i+len(" kubernetes/"):]
		if _, suffix, ok := strings.Cut(rest, "/"); ok {
			suffix = strings.TrimPrefix(suffix, "system:serviceaccount:kube-system:")
			if d := dirsOf(suffix); d != nil && suffix != "scheduler" {
				return Component{Name: suffix, Dirs: d, From: "user agent"}, true
			}
		}
	}
	if d := dirsOf(bin); d != nil {
		return Component{Name: bin, Dirs: d, From: "user agent"}, true
	}
	if bin != "" {
		return Component{Name: bin, From: "user agent"}, true
	}
	return Component{}, false
}

// inDirs reports whether repository path p lies in one of dirs.
func inDirs(p string, dirs []string) bool {
	for _, d := range dirs {
		if strings.HasPrefix(p, d+"/") {
			return true
		}
	}
	return false
}

// pkgDir returns the directory of a repository path.
func pkgDir(p string) string {
	if i := strings.LastIndex(p, "/"); i >= 0 {
		return p[:i]
	}
	return ""
}

// linkedDirs are library directories a component links and runs code of
// at run time, outside its own directories: their informers and writes
// are the component's own. Several components link each of them, so
// they belong to no one component's directories (componentDirs,
// moreDirs); a component's whole run counts them for the components
// listed here. The facts carry no import graph to decide this from, and
// the call graph does not reach them from a component's command, which
// is not an analysis root.
var linkedDirs = map[string][]string{
	// The delegated authentication every component serving HTTPS
	// builds: its client CA and request-header config map informers.
	"kube-scheduler": {
		"staging/src/k8s.io/apiserver/pkg/server/dynamiccertificates",
		"staging/src/k8s.io/apiserver/pkg/authentication/request/headerrequest",
		// The resource slice tracker, handed the scheduler's informers.
		"staging/src/k8s.io/dynamic-resource-allocation",
	},
	"kube-controller-manager": {
		"staging/src/k8s.io/apiserver/pkg/server/dynamiccertificates",
		"staging/src/k8s.io/apiserver/pkg/authentication/request/headerrequest",
		// The quota evaluators of the resource quota controller.
		"pkg/quota",
	},
	// The quota evaluators of the ResourceQuota admission plugin.
	"kube-apiserver": {"pkg/quota"},
	// The volume plugins the kubelet runs: the CSI node info manager.
	"kubelet": {"pkg/volume"},
}
