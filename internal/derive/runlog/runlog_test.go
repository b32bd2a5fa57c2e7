package runlog

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/derive/explain"
	"github.com/kubewalk/kubewalk/record"
)

const dc = "system:serviceaccount:kube-system:deployment-controller"

// explained is an explanation by the code at path:line, attributed to
// the step doc#step ("" for none).
func explained(path string, line int, doc, step string) explain.Explanation {
	ex := explain.Explanation{Explained: true, Code: []explain.Code{{Role: "wrote", Symbol: "f", Path: path, Line: line}}}
	if doc != "" {
		ex.Steps = []explain.StepRef{{Walkthrough: doc, Step: step}}
	}
	return ex
}

// fixture is a small run: a start-up write and watch the scenario did not
// cause, the apply by kubectl, the deployment controller's create of a
// ReplicaSet and two status updates from the same code, its event, the
// scheduler's bindings and event, and a write of the cluster's own after
// the apply.
func fixture() *Run {
	audit := func(at int64, verb, res, sub, user, ua string, scenario bool, ex explain.Explanation) explain.AttributedAudit {
		return explain.AttributedAudit{AuditEntry: record.AuditEntry{At: at, Verb: verb, Resource: res, Subresource: sub, Namespace: "default", Name: "x", User: user, UserAgent: ua, RequestURI: "/apis/" + res}, Scenario: scenario, Explanation: ex}
	}
	at := &explain.Attribution{
		Audit: []explain.AttributedAudit{
			audit(-500, "create", "namespaces", "", "system:apiserver", "kube-apiserver/v1.37.2", false, explained("pkg/ns.go", 1, "startup", "ns")),
			audit(-400, "watch", "deployments", "", "system:kube-controller-manager", "kube-controller-manager/v1.37.2", false, explain.Explanation{}),
			audit(0, "create", "deployments", "", "kubernetes-admin", "kubectl/v1.37.2", true, explained("", 0, "deployment", "apply")),
			audit(61, "create", "replicasets", "", dc, "kube-controller-manager/v1.37.2/"+dc, true, explained("pkg/sync.go", 21, "deployment", "rs")),
			audit(80, "update", "replicasets", "status", dc, "kube-controller-manager/v1.37.2/"+dc, true, explained("pkg/sync.go", 40, "deployment", "status")),
			audit(90, "update", "replicasets", "status", dc, "kube-controller-manager/v1.37.2/"+dc, true, explained("pkg/sync.go", 40, "deployment", "status")),
			audit(100, "create", "pods", "binding", "system:kube-scheduler", "kube-scheduler/v1.37.2", true, explained("pkg/bind.go", 7, "deployment", "bind")),
			audit(100, "get", "pods", "", "system:kube-scheduler", "kube-scheduler/v1.37.2", true, explain.Explanation{}),
			audit(150, "patch", "leases", "", "system:node:node1", "kubelet/v1.37.2", false, explain.Explanation{}),
		},
		Events: []explain.AttributedEvent{
			{Event: record.Event{At: 71, Type: "Normal", Reason: "ScalingReplicaSet", Object: record.ObjectRef{Kind: "Deployment", Name: "web"}, Component: "deployment-controller", Message: "Scaled up", Last: 1071}, Scenario: true, Explanation: explained("pkg/sync.go", 30, "deployment", "rs")},
			{Event: record.Event{At: 100, Type: "Normal", Reason: "Scheduled", Object: record.ObjectRef{Kind: "Pod", Name: "web-1"}, Component: "default-scheduler", Message: "Assigned", Last: 3100}, Scenario: true, Explanation: explained("pkg/bind.go", 9, "deployment", "bind")},
			{Event: record.Event{At: -900, Type: "Normal", Reason: "Starting", Object: record.ObjectRef{Kind: "Node", Name: "node1"}, Component: "kubelet", Last: 500}},
		},
	}
	return New(&record.Recording{Scenario: "deployment"}, at)
}

// heads is each item's Head, to compare lists of items in a line.
func heads(items []Item) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.Head())
	}
	return out
}

// TestNew: the scenario's items in time order, an audit entry before an
// event at the same time; every item with a step, the start-up's too,
// filed by its first step.
func TestNew(t *testing.T) {
	r := fixture()
	want := []string{"create deployments", "create replicasets", "Normal ScalingReplicaSet", "update replicasets/status", "update replicasets/status", "create pods/binding", "get pods", "Normal Scheduled"}
	if got := heads(r.Items); !slices.Equal(got, want) {
		t.Errorf("items %q, want %q", got, want)
	}
	if got := heads(r.ByStep["deployment#rs"]); !slices.Equal(got, []string{"create replicasets", "Normal ScalingReplicaSet"}) {
		t.Errorf("step rs holds %q", got)
	}
	if got := heads(r.ByStep["startup#ns"]); !slices.Equal(got, []string{"create namespaces"}) {
		t.Errorf("the start-up's step holds %q", got)
	}
	if it := r.ByStep["deployment#bind"][0]; it.Doc != "deployment" || it.Step != "bind" {
		t.Errorf("a filed item's step is %q#%q", it.Doc, it.Step)
	}
	if len(r.ByStep) != 5 {
		t.Errorf("%d steps, want 5: %v", len(r.ByStep), r.ByStep)
	}
}

// TestActor names requests' and events' makers as the diagrams do.
func TestActor(t *testing.T) {
	for _, c := range []struct {
		user, ua, want string
	}{
		{"kubernetes-admin", "kubectl/v1.37.2 (linux/amd64)", "kubectl"},
		{dc, "kube-controller-manager/v1.37.2", "deployment controller"},
		{"system:kube-scheduler", "kube-scheduler/v1.37.2", "kube-scheduler"},
		{"system:node:node1", "kubelet/v1.37.2", "kubelet"},
		{"system:kube-controller-manager", "kube-controller-manager/v1.37.2", "kube-controller-manager"},
		{"alice", "curl/8", "alice"},
	} {
		if got := Actor(record.AuditEntry{User: c.user, UserAgent: c.ua}); got != c.want {
			t.Errorf("Actor(%s, %s) = %q, want %q", c.user, c.ua, got, c.want)
		}
	}
	for comp, want := range map[string]string{"deployment-controller": "deployment controller", "default-scheduler": "kube-scheduler", "kubelet": "kubelet"} {
		it := Item{Event: &explain.AttributedEvent{Event: record.Event{Component: comp}}}
		if got := it.Actor(); got != want {
			t.Errorf("the actor of an event by %s is %q, want %q", comp, got, want)
		}
		if it.Who() != comp {
			t.Errorf("Who of an event by %s is %q", comp, it.Who())
		}
	}
}

func TestShortAgent(t *testing.T) {
	for ua, want := range map[string]string{
		"kubectl/v1.37.2": "",
		"kube-controller-manager/v1.37.2 (linux/amd64) kubernetes/abcdef/" + dc: "kube-controller-manager/v1.37.2 …",
		"kube-controller-manager/v1.37.2/" + dc:                                 "kube-controller-manager/v1.37.2 …",
		strings.Repeat("x", 50):                                                 strings.Repeat("x", 40) + " …",
	} {
		if got := ShortAgent(ua); got != want {
			t.Errorf("ShortAgent(%q) = %q, want %q", ua, got, want)
		}
	}
}

// TestFold: repeats of the same head by the same maker from the same code
// fold into the first; who decides what "the same maker" is; a run of
// one step's items is marked after its first.
func TestFold(t *testing.T) {
	ex := explained("pkg/kubelet.go", 5, "deployment", "run")
	node := func(at int64, n string) Item {
		return Item{At: at, Doc: "deployment", Step: "run", Audit: &explain.AttributedAudit{AuditEntry: record.AuditEntry{Verb: "patch", Resource: "pods", Subresource: "status", User: "system:node:" + n}, Explanation: ex}}
	}
	other := node(15, "node1")
	other.Audit.Explanation = explained("pkg/kubelet.go", 9, "deployment", "run")
	event := Item{At: 30, Event: &explain.AttributedEvent{Event: record.Event{Type: "Normal", Reason: "Pulled", Component: "kubelet"}, Explanation: ex}}
	items := []Item{node(10, "node1"), other, node(20, "node2"), node(25, "node1"), event}

	byUser := Fold(items, Item.Who)
	if len(byUser) != 4 || byUser[0].More != 1 || byUser[0].Last != 25 || byUser[2].More != 0 {
		t.Errorf("folded by user: %+v", byUser)
	}
	byActor := Fold(items, Item.Actor)
	if len(byActor) != 3 || byActor[0].More != 2 || byActor[0].Last != 25 || byActor[1].At != 15 || byActor[2].Event == nil {
		t.Fatalf("folded by actor: %+v", byActor)
	}
	// One step throughout: its link on the first item only; an item
	// without a step ends the run.
	if byActor[0].SameStep || !byActor[1].SameStep || byActor[2].SameStep {
		t.Errorf("same step %v %v %v, want false true false", byActor[0].SameStep, byActor[1].SameStep, byActor[2].SameStep)
	}
	again := Fold([]Item{node(1, "a"), {At: 2, Event: event.Event}, node(3, "b")}, Item.Who)
	if again[2].SameStep {
		t.Error("a step after an item without one is marked as repeated")
	}
}

// TestPhasesCoverage files items into the recording's phases by time,
// the last phase taking what comes after, empty phases left out.
func TestPhasesCoverage(t *testing.T) {
	r := fixture()
	r.Rec.Coverage = &record.Coverage{Phases: []record.Phase{
		{Name: "startup", Start: -1000, End: 0},
		{Name: "apply/kubectl", Start: 0, End: 50},
		{Name: "apply/empty", Start: 50, End: 60},
		{Name: "apply/pods", Start: 60, End: 95},
		{Name: "apply/bound", Start: 95, End: 120},
	}}
	ph := r.Phases()
	var names []string
	for _, p := range ph {
		names = append(names, p.Name)
	}
	if want := []string{"startup", "apply/kubectl", "apply/pods", "apply/bound"}; !slices.Equal(names, want) {
		t.Fatalf("phases %q, want %q", names, want)
	}
	// The start-up: its write and its event, and its watch apart; none
	// of them the scenario's, so none carries a step.
	s := ph[0]
	if got := heads(s.Items); !slices.Equal(got, []string{"Normal Starting", "create namespaces"}) || len(s.Watches) != 1 || s.NWrites != 1 || s.NEvents != 1 {
		t.Errorf("startup: items %q, %d watches, %d writes, %d events", got, len(s.Watches), s.NWrites, s.NEvents)
	}
	if s.Items[1].Doc != "" || s.From != -1000 || s.To != 0 {
		t.Errorf("startup: step %q, bounds %d…%d", s.Items[1].Doc, s.From, s.To)
	}
	if ph[2].Items[0].Doc != "deployment" || ph[2].Items[0].Step != "rs" {
		t.Errorf("a scenario item's step: %q#%q", ph[2].Items[0].Doc, ph[2].Items[0].Step)
	}
	// The read (get pods) is no write; the kubelet's lease, after the
	// last phase's end, is the last phase's.
	if got := heads(ph[3].Items); !slices.Equal(got, []string{"create pods/binding", "Normal Scheduled", "patch leases"}) || ph[3].From != 95 || ph[3].To != 120 {
		t.Errorf("apply/bound: %q, %d…%d", got, ph[3].From, ph[3].To)
	}
}

// TestPhasesDerived: without coverage, the start-up, a phase per actor of
// the scenario in the order it first acted (its events with it), then
// the cluster's own; bounds from the items.
func TestPhasesDerived(t *testing.T) {
	ph := fixture().Phases()
	var got []string
	for _, p := range ph {
		got = append(got, p.Name+":"+p.Actor+":"+strings.Join(heads(p.Items), ","))
	}
	want := []string{
		"startup::Normal Starting,create namespaces",
		"actor:kubectl:create deployments",
		"actor:deployment controller:create replicasets,Normal ScalingReplicaSet,update replicasets/status,update replicasets/status",
		"actor:kube-scheduler:create pods/binding,Normal Scheduled",
		"quiet::patch leases",
	}
	if !slices.Equal(got, want) {
		t.Errorf("phases\n%q, want\n%q", got, want)
	}
	if ph[0].From != -900 || ph[0].To != -400 || ph[2].From != 61 || ph[2].To != 90 {
		t.Errorf("bounds %d…%d, %d…%d; want -900…-400 (the watch last), 61…90", ph[0].From, ph[0].To, ph[2].From, ph[2].To)
	}
}

// TestParams: the watch parameters the watches carry, in WatchParams
// order, each with the code that sets it in the first watch naming one.
func TestParams(t *testing.T) {
	watch := func(uri string, params ...explain.WatchParam) explain.AttributedAudit {
		return explain.AttributedAudit{AuditEntry: record.AuditEntry{Verb: "watch", RequestURI: uri}, Explanation: explain.Explanation{Watch: &explain.Watch{Params: params}}}
	}
	r := New(&record.Recording{}, &explain.Attribution{Audit: []explain.AttributedAudit{
		watch("/api/v1/pods?watch=true&timeoutSeconds=300&allowWatchBookmarks=true", explain.WatchParam{Name: "timeoutSeconds"}, explain.WatchParam{Name: "allowWatchBookmarks", Symbol: "reflector.watch"}),
		watch("/api/v1/nodes?watch=true&timeoutSeconds=60", explain.WatchParam{Name: "timeoutSeconds", Symbol: "reflector.ListAndWatch"}),
		{AuditEntry: record.AuditEntry{Verb: "list", RequestURI: "/api/v1/pods?labelSelector=a"}},
	}})
	want := []Param{{"allowWatchBookmarks", "reflector.watch"}, {"timeoutSeconds", "reflector.ListAndWatch"}}
	if got := r.Params(); !slices.Equal(got, want) {
		t.Errorf("params %v, want %v", got, want)
	}
}

// TestArrows: one arrow per actor, verb and resource, counted; reads and
// events' creates drawn by none; the API server second.
func TestArrows(t *testing.T) {
	r := fixture()
	items := append(r.Items, Item{At: 200, Audit: &explain.AttributedAudit{AuditEntry: record.AuditEntry{Verb: "create", Resource: "events", User: dc}}})
	participants, arrows := Arrows(items)
	if want := []string{"kubectl", APIServer, "deployment controller", "kube-scheduler"}; !slices.Equal(participants, want) {
		t.Errorf("participants %q, want %q", participants, want)
	}
	var got []string
	for _, a := range arrows {
		got = append(got, a.From+" "+a.Label+" "+strings.Repeat("+", a.N))
	}
	if want := []string{"kubectl create deployments +", "deployment controller create replicasets +", "deployment controller update replicasets/status ++", "kube-scheduler create pods/binding +"}; !slices.Equal(got, want) {
		t.Errorf("arrows %q, want %q", got, want)
	}
	if arrows[2].First.At != 80 || arrows[2].First.Step != "status" {
		t.Errorf("the status updates' arrow starts at %+v", arrows[2].First)
	}
	if p, a := Arrows(r.Items[2:3]); p != nil || a != nil {
		t.Errorf("an event alone drew %q %v", p, a)
	}
}

// TestEventsTable prints the scenario's events as kubectl get events
// does, their age from the newest event's last time.
func TestEventsTable(t *testing.T) {
	got := fixture().EventsTable()
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "LAST SEEN   TYPE     REASON") {
		t.Fatalf("table:\n%s", got)
	}
	if !strings.HasPrefix(lines[1], "2s          Normal   ScalingReplicaSet   deployment/web") || !strings.HasSuffix(lines[1], " Scaled up") {
		t.Errorf("row %q", lines[1])
	}
	if !strings.HasPrefix(lines[2], "0s          Normal   Scheduled           pod/web-1") || strings.Contains(got, "Starting") {
		t.Errorf("row %q, or the cluster's own event listed", lines[2])
	}
}

// TestKeys: each key with values, the objects before the Event objects,
// each revision beside the write that answered with it, the newest value
// without managedFields.
func TestKeys(t *testing.T) {
	rs := func(replicas string) string {
		return "metadata:\n  managedFields:\n  - manager: kcm\n    time: \"" + replicas + "\"\n  name: web\nstatus:\n  replicas: " + replicas + "\n"
	}
	rec := &record.Recording{
		Audit: []record.AuditEntry{
			{At: 61, Verb: "create", Resource: "replicasets", Namespace: "default", Name: "web", User: dc, Code: 201, ResourceVersion: "5"},
			{At: 80, Verb: "update", Resource: "replicasets", Subresource: "status", Namespace: "default", Name: "web", User: dc, Code: 200, ResourceVersion: "7"},
		},
		Keys: []record.Key{
			{Key: "/registry/events/default/web.1", Revisions: []record.Revision{{Revision: 6, Version: 1, YAML: "kind: Event\n"}}},
			{Key: "/registry/minions/node1"},
			{Key: "/registry/replicasets/default/web", Revisions: []record.Revision{
				{Revision: 5, Version: 2, YAML: rs("0")},
				{Revision: 7, Version: 3, YAML: rs("3")},
				{Revision: 9, Version: 4, Error: "undecodable"},
			}},
		},
	}
	at := &explain.Attribution{}
	for _, a := range rec.Audit {
		at.Audit = append(at.Audit, explain.AttributedAudit{AuditEntry: a})
	}
	r := New(rec, at)
	objects, events := r.Keys()
	if len(objects) != 1 || len(events) != 1 || objects[0].Index != 2 || events[0].Index != 0 {
		t.Fatalf("objects %+v, events %+v", objects, events)
	}
	k := objects[0]
	if !k.Compacted || len(k.Revs) != 3 || k.ValueRev != 7 || k.Value != "metadata:\n  name: web\nstatus:\n  replicas: 3\n" {
		t.Errorf("compacted %v, %d revisions, value at %d:\n%s", k.Compacted, len(k.Revs), k.ValueRev, k.Value)
	}
	if k.Revs[0].Write != &at.Audit[0] || k.Revs[1].Write != &at.Audit[1] || k.Revs[2].Write != nil {
		t.Errorf("writes %p %p %p, want the create, the update, none", k.Revs[0].Write, k.Revs[1].Write, k.Revs[2].Write)
	}
	if k.Revs[0].Value != "metadata:\n  name: web\nstatus:\n  replicas: 0\n" || k.Revs[2].Value != "" {
		t.Errorf("revision values %q, %q", k.Revs[0].Value, k.Revs[2].Value)
	}
	if events[0].Compacted || !r.HasValues() {
		t.Error("the event's key is compacted, or the run has no values")
	}
	var none *Run
	rec.Keys = rec.Keys[1:2]
	if none.HasValues() || r.HasValues() {
		t.Error("a run without values, or none, has values")
	}
}

// TestWithoutManagedFields leaves out metadata.managedFields and nothing
// else, however deep its entries go.
func TestWithoutManagedFields(t *testing.T) {
	in := "apiVersion: v1\nmetadata:\n  managedFields:\n  - apiVersion: v1\n    fieldsV1:\n      f:spec: {}\n  - manager: b\n  name: x\nspec:\n  managedFields: kept\n"
	if got, want := WithoutManagedFields(in), "apiVersion: v1\nmetadata:\n  name: x\nspec:\n  managedFields: kept\n"; got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestRuleNames: each declared name once, with the constant whose value
// it is, or the longest prefix constant it starts with; constants read
// from their declarations' last lines.
func TestRuleNames(t *testing.T) {
	const proxier = "pkg/proxy/nftables/proxier.go"
	src := "package nftables\n\nconst (\n\t// service dispatch\n\tservicesChain = \"services\"\n\n\tservicePortChainNamePrefix = \"service-\"\n\tserviceShort = \"s-\"\n\tbroken = services\n)\n"
	sym := func(name string, from, to int) fact.Symbol {
		return fact.Symbol{Name: NftablesProxier + name, Kind: "const", Decl: fact.Location{Path: proxier, StartLine: from, EndLine: to}}
	}
	symbols := []fact.Symbol{
		sym("servicesChain", 4, 5), sym("servicePortChainNamePrefix", 7, 7), sym("serviceShort", 8, 8), sym("broken", 9, 9),
		{Name: NftablesProxier + "Proxier.x", Kind: "const", Decl: fact.Location{Path: proxier, StartLine: 5, EndLine: 5}},
		{Name: "k8s.io/other.servicesChain", Kind: "const", Decl: fact.Location{Path: proxier, StartLine: 5, EndLine: 5}},
	}
	read := func(p string) ([]byte, error) {
		if p == proxier {
			return []byte(src), nil
		}
		return nil, errors.New("no such file")
	}
	ruleset := "table ip kube-proxy {\n\tchain services {\n\t\tjump x\n\t}\n\tchain service-ABC-default/web/tcp/ {\n\t}\n\tmap other {\n\t}\n\tchain services {\n\t}\n}\n"
	got := RuleNames(ruleset, symbols, read)
	var names []string
	for _, n := range got {
		c := strings.TrimPrefix(n.Const.Name, NftablesProxier)
		if n.Prefix {
			c += "…"
		}
		names = append(names, n.Kind+" "+n.Name+" "+c)
	}
	want := []string{"table kube-proxy ", "chain services servicesChain", "chain service-ABC-default/web/tcp/ servicePortChainNamePrefix…", "map other "}
	if !slices.Equal(names, want) {
		t.Errorf("names %q, want %q", names, want)
	}
	if got[1].Const.Decl.StartLine != 4 {
		t.Errorf("the constant's declaration is %+v", got[1].Const.Decl)
	}
	if got := RuleNames(ruleset, symbols, nil); len(got) != 4 || got[1].Const.Name != "" {
		t.Errorf("without the tree: %+v", got)
	}
}
