package explain

import (
	"fmt"
	"slices"
	"strings"
)

// outside is code that writes or watches while a cluster runs, in
// packages the analysis may not load facts from. When an item finds no
// fact, notAnalyzed names this code and says why its line is not shown:
// the package is not one of the analysis' roots (facts come only from
// roots). The table does not attribute anything: an item it describes
// stays unattributed, with this as its reason, until the analysis loads
// the package and a fact explains it.
type outside struct {
	// component and verb ("" for any write), resources
	// ("flowschemas/status": with its subresource; none for any) and name
	// ("" for any) select the items.
	component, verb, name string
	resources             []string
	// fieldSelector and labelSelector select watches by theirs.
	fieldSelector, labelSelector string
	// who says what does it, pkg the package.
	who, pkg string
}

var outsideCode = []outside{
	// kube-apiserver's post-start hooks and controllers.
	{component: "kube-apiserver", resources: []string{"clusterroles", "clusterrolebindings", "roles", "rolebindings"}, who: "the API server's RBAC bootstrap (post-start hook rbac/bootstrap-roles)", pkg: "k8s.io/kubernetes/pkg/registry/rbac/rest"},
	{component: "kube-apiserver", resources: []string{"apiservices"}, who: "the aggregator's APIService auto-registration, one APIService per built-in group and version", pkg: "k8s.io/kube-aggregator/pkg/controllers/autoregister"},
	{component: "kube-apiserver", resources: []string{"flowschemas/status", "prioritylevelconfigurations/status"}, who: "the API Priority and Fairness controller, which records each FlowSchema's Dangling condition", pkg: "k8s.io/apiserver/pkg/util/flowcontrol"},
	{component: "kube-apiserver", resources: []string{"flowschemas", "prioritylevelconfigurations"}, who: "the API Priority and Fairness configuration bootstrap (post-start hook priority-and-fairness-config-producer)", pkg: "k8s.io/kubernetes/pkg/registry/flowcontrol/ensurer"},
	{component: "kube-apiserver", verb: "create", resources: []string{"namespaces"}, who: "the system namespaces controller (default, kube-system, kube-public, kube-node-lease)", pkg: "k8s.io/kubernetes/pkg/controlplane/controller/systemnamespaces"},
	{component: "kube-apiserver", resources: []string{"priorityclasses"}, who: "the post-start hook scheduling/bootstrap-system-priority-classes (system-node-critical, system-cluster-critical)", pkg: "k8s.io/kubernetes/pkg/registry/scheduling/rest"},
	{component: "kube-apiserver", verb: "delete", resources: []string{"leases"}, who: "the API server's identity lease garbage collector", pkg: "k8s.io/kubernetes/pkg/controlplane/controller/apiserverleasegc"},
	{component: "kube-apiserver", resources: []string{"leases"}, who: "the API server's identity lease (kube-apiserver-… in kube-system), renewed by the lease controller the control plane starts", pkg: "k8s.io/component-helpers/apimachinery/lease"},
	{component: "kube-apiserver", resources: []string{"services"}, who: "the controller of the kubernetes Service in the default namespace", pkg: "k8s.io/kubernetes/pkg/controlplane/controller/kubernetesservice"},
	{component: "kube-apiserver", resources: []string{"endpoints", "endpointslices"}, who: "the endpoints reconciler of the kubernetes Service", pkg: "k8s.io/kubernetes/pkg/controlplane/reconcilers"},
	{component: "kube-apiserver", resources: []string{"configmaps"}, name: "extension-apiserver-authentication", who: "the cluster authentication trust controller, which publishes the client CA for other servers", pkg: "k8s.io/kubernetes/pkg/controlplane/controller/clusterauthenticationtrust"},
	{component: "kube-apiserver", resources: []string{"configmaps"}, name: "kube-apiserver-legacy-service-account-token-tracking", who: "the legacy service account token tracking controller", pkg: "k8s.io/kubernetes/pkg/controlplane/controller/legacytokentracking"},
	{component: "kube-apiserver", resources: []string{"servicecidrs", "servicecidrs/status"}, who: "the default ServiceCIDR controller", pkg: "k8s.io/kubernetes/pkg/controlplane/controller/defaultservicecidr"},
	{component: "kube-apiserver", resources: []string{"ipaddresses"}, who: "the ClusterIP allocator, for the kubernetes Service's address", pkg: "k8s.io/kubernetes/pkg/registry/core/service/ipallocator"},
	// kube-apiserver's own informers, by the loopback client: the
	// controllers above watch what they keep, with a selector; the rest
	// come from the shared informer factory.
	{component: "kube-apiserver", verb: "watch", resources: []string{"servicecidrs"}, fieldSelector: "metadata.name=kubernetes", who: "the default ServiceCIDR controller", pkg: "k8s.io/kubernetes/pkg/controlplane/controller/defaultservicecidr"},
	{component: "kube-apiserver", verb: "watch", resources: []string{"configmaps"}, fieldSelector: "metadata.name=kube-apiserver-legacy-service-account-token-tracking", who: "the legacy service account token tracking controller", pkg: "k8s.io/kubernetes/pkg/controlplane/controller/legacytokentracking"},
	{component: "kube-apiserver", verb: "watch", resources: []string{"leases"}, labelSelector: "apiserver.kubernetes.io/identity=kube-apiserver", who: "the API server's identity lease garbage collector", pkg: "k8s.io/kubernetes/pkg/controlplane/controller/apiserverleasegc"},
	{component: "kube-apiserver", verb: "watch", resources: []string{"roles", "rolebindings", "clusterroles", "clusterrolebindings"}, who: "the RBAC authorizer's listers, asked of the API server's shared informer factory", pkg: "k8s.io/kubernetes/pkg/kubeapiserver/authorizer"},
	{component: "kube-apiserver", verb: "watch", resources: []string{"volumeattachments", "resourceslices", "podcertificaterequests"}, who: "the Node authorizer's graph, whose informers the authorizer configuration hands to AddGraphEventHandlers", pkg: "k8s.io/kubernetes/pkg/kubeapiserver/authorizer"},
	{component: "kube-apiserver", verb: "watch", resources: []string{"ipaddresses", "servicecidrs"}, who: "the ClusterIP allocator and its repair loop", pkg: "k8s.io/kubernetes/pkg/registry/core/service/ipallocator"},
	{component: "kube-apiserver", verb: "watch", who: "an informer of the API server's own shared informer factory (its loopback client, made in CreateConfig), asked for by admission plugins (k8s.io/kubernetes/plugin/pkg/admission, k8s.io/apiserver/pkg/admission/plugin), authorizers and the API server's controllers", pkg: "k8s.io/kubernetes/pkg/controlplane/apiserver"},
	// kube-controller-manager's client builder.
	{component: "kube-controller-manager", resources: []string{"serviceaccounts/token"}, who: "the controller manager's client builder, which requests a token for each controller's service account (--use-service-account-credentials)", pkg: "k8s.io/controller-manager/pkg/clientbuilder"},
	{component: "kube-controller-manager", resources: []string{"serviceaccounts"}, who: "the controller manager's client builder, which creates each controller's service account", pkg: "k8s.io/controller-manager/pkg/clientbuilder"},
	// The kubelet's node lease and status.
	{component: "kubelet", resources: []string{"leases"}, who: "the kubelet's node lease controller (kube-node-lease)", pkg: "k8s.io/component-helpers/apimachinery/lease"},
	{component: "kubelet", resources: []string{"csinodes"}, who: "the CSI node info manager, which creates the node's CSINode object", pkg: "k8s.io/kubernetes/pkg/volume/csi/nodeinfomanager"},
	{component: "kubelet", resources: []string{"nodes/status"}, who: "the kubelet's node status report, through PatchNodeStatus", pkg: "k8s.io/component-helpers/node/util"},
	// The scheduler's DRA resource slice tracker, given its informers
	// by scheduler.New.
	{component: "kube-scheduler", verb: "watch", resources: []string{"resourceslices", "devicetaintrules"}, who: "the resource slice tracker the scheduler starts for dynamic resource allocation", pkg: "k8s.io/dynamic-resource-allocation/resourceslice/tracker"},
	// Delegated authentication, in every component serving HTTPS.
	{verb: "watch", resources: []string{"configmaps"}, fieldSelector: "metadata.name=extension-apiserver-authentication", who: "the delegated authentication, which reads the client CA and the request-header settings from the configmap extension-apiserver-authentication", pkg: "k8s.io/apiserver/pkg/server/dynamiccertificates"},
}

// notAnalyzed says why an item no fact explains has no line: the code
// that makes it lies in a package the analysis finds no facts in. ""
// when outsideCode does not describe the item, or its package is one of
// the roots (then the facts should have shown it, and the item keeps the
// note that says what was looked for).
func (x *Explainer) notAnalyzed(a *AuditRecord, comp Component) string {
	res := a.Resource
	if a.Subresource != "" {
		res += "/" + a.Subresource
	}
	var fsel, lsel string
	if w := parseWatch(a.RequestURI); w != nil {
		fsel, lsel = w.FieldSelector, w.LabelSelector
	}
	for _, o := range outsideCode {
		if o.component != "" && o.component != comp.Name ||
			o.verb == "" && !writeVerbs[a.Verb] || o.verb != "" && o.verb != a.Verb ||
			len(o.resources) > 0 && !slices.Contains(o.resources, res) ||
			o.name != "" && o.name != a.Name ||
			o.fieldSelector != "" && o.fieldSelector != fsel ||
			o.labelSelector != "" && o.labelSelector != lsel {
			continue
		}
		if x.rootHas(o.pkg) {
			return ""
		}
		return fmt.Sprintf("%s by %s (package %s); the analysis finds facts only in its root packages, and %s is not one of them at %s",
			verbing(a.Verb), o.who, o.pkg, o.pkg, x.facts.Tag)
	}
	return ""
}

func verbing(verb string) string {
	switch verb {
	case "watch", "list", "get":
		return "opened"
	}
	return "written"
}

// rootHas reports whether package pkg (an import path) is one of the
// facts' roots: "./pkg/controller/..." holds
// k8s.io/kubernetes/pkg/controller/deployment.
func (x *Explainer) rootHas(pkg string) bool {
	for _, r := range x.facts.Roots {
		if rest, ok := strings.CutPrefix(r, "./"); ok {
			r = "k8s.io/kubernetes/" + rest
		}
		if base, ok := strings.CutSuffix(r, "/..."); ok {
			if pkg == base || strings.HasPrefix(pkg, base+"/") {
				return true
			}
			continue
		}
		if r == pkg {
			return true
		}
	}
	return false
}
