package site

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/kubewalk/kubewalk/internal/linkcheck"
	"github.com/kubewalk/kubewalk/record"
)

// etcdRecording is the fixture's run with the ReplicaSet's key holding
// three revisions (a line too long for a phone): its create by the
// deployment controller, a status update, and a change no audited write
// answered with; a Secret whose
// values the recording redacted; an Event object; and hostile text in a
// value.
func etcdRecording() *record.Recording {
	rec := fixtureRecording()
	const dc = "system:serviceaccount:kube-system:deployment-controller"
	rec.Audit[2].ResourceVersion = "5"
	rec.Audit = append(rec.Audit, record.AuditEntry{At: 80, Stage: "ResponseComplete", Verb: "update", Group: "apps", Version: "v1", Resource: "replicasets", Subresource: "status", Namespace: "default", Name: "nginx-deployment-6c5f67b5f7", User: dc, UserAgent: "kube-controller-manager/" + fixtureTag + "/" + dc, RequestURI: "/apis/apps/v1/namespaces/default/replicasets/nginx-deployment-6c5f67b5f7/status", Code: 200, ResourceVersion: "7"})
	rs := func(replicas, note string) string {
		return "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata:\n  annotations:\n    applied: '{\"apiVersion\":\"apps/v1\",\"kind\":\"ReplicaSet\",\"metadata\":{\"annotations\":{},\"labels\":{\"app\":\"nginx\"},\"name\":\"nginx-deployment-6c5f67b5f7\"}}'\n    note: '" + note + "'\n  managedFields:\n  - manager: kube-controller-manager\n    time: \"" + replicas + "\"\n  name: nginx-deployment-6c5f67b5f7\n  namespace: default\nspec:\n  replicas: 3\n  selector:\n    matchLabels:\n      app: nginx\nstatus:\n  replicas: " + replicas + "\n"
	}
	rec.Keys = []record.Key{
		{Key: "/registry/events/default/nginx-deployment.1", Size: 600, Version: 1, Encoding: "protobuf", APIVersion: "v1", Kind: "Event", Prefix: `"k8s\x00"`,
			Revisions: []record.Revision{{Revision: 6, Version: 1, Size: 600, YAML: "apiVersion: v1\nkind: Event\nreason: ScalingReplicaSet\n"}}},
		{Key: "/registry/replicasets/default/nginx-deployment-6c5f67b5f7", Size: 1900, Version: 3, Encoding: "protobuf", APIVersion: "apps/v1", Kind: "ReplicaSet", Prefix: `"k8s\x00"`,
			Revisions: []record.Revision{
				{Revision: 5, Version: 1, Size: 1800, YAML: rs("0", "<script>alert(5)</script>")},
				{Revision: 7, Version: 2, Size: 1850, YAML: rs("3", "<script>alert(5)</script>")},
				{Revision: 9, Version: 3, Size: 1900, YAML: rs("3", "calm")},
			}},
		{Key: "/registry/secrets/default/s", Size: 120, Version: 0, Encoding: "protobuf", APIVersion: "v1", Kind: "Secret", Prefix: `"k8s\x00"`, Deleted: true,
			Revisions: []record.Revision{
				{Revision: 8, Version: 1, Size: 120, YAML: "apiVersion: v1\ndata:\n  password: " + record.Redacted + "\nkind: Secret\n"},
				{Revision: 10, Deleted: true},
			}},
		// A key of a recording made before values were read.
		{Key: "/registry/minions/node1", Size: 1700, Version: 4, Encoding: "protobuf", Kind: "Node", Prefix: `"k8s\x00"`},
	}
	return rec
}

// The etcd section: each key's revisions beside the writes that made
// them and their code, each change as a diff, the newest value in full,
// the events apart, deletes and values kubewalk never read said so.
func TestRecordedEtcd(t *testing.T) {
	out, _ := buildFixture(t, func(in *Input) { in.Recordings = []*record.Recording{etcdRecording()} })
	// The links to the keys' sections and to the writes' code resolve.
	for _, err := range linkcheck.Check(out, ScriptLinks) {
		t.Error(err)
	}
	page := readTree(t, out)[RecordedPage("deployment")]
	_, etcd, ok := strings.Cut(page, `<h2 id="etcd">`)
	if !ok {
		t.Fatal("recorded.html has no etcd section")
	}
	section := func(id string) string {
		_, s, ok := strings.Cut(etcd, `<details class="etcdkey" id="`+id+`">`)
		if !ok {
			t.Fatalf("no section %s", id)
		}
		s, _, _ = strings.Cut(s, "</details>")
		return s
	}
	// The table links each key with values to its section; the node's
	// key, read without values, links nowhere.
	for _, want := range []string{
		`<a href="#etcd-2"><code>/registry/replicasets/default/nginx-deployment-6c5f67b5f7</code></a>`,
		`<td><code>/registry/minions/node1</code></td>`,
		"k8s\\x00",
		"etcdctl get",
	} {
		if !strings.Contains(etcd, want) {
			t.Errorf("the etcd section lacks %q", want)
		}
	}
	if strings.Contains(etcd, `id="etcd-4"`) {
		t.Error("the node's key, without revisions, has a section")
	}
	rs := section("etcd-2")
	for _, want := range []string{
		"3 revisions",
		// The create, written by the deployment controller's code.
		"revision 5", "created", "create replicasets", `href="src/pkg/controller/deployment/sync.go.html#L21">deployment.DeploymentController.getNewReplicaSet</a>`,
		// The status update, as a change: a line removed, a line added,
		// the unchanged ones folded.
		"revision 7", "update replicasets/status",
		`<span class="d">-   replicas: 0</span>`, `<span class="a">+   replicas: 3</span>`,
		"unchanged lines",
		// A change no write answered with.
		"revision 9", "No audited write answered with this revision.",
		// The newest value in full.
		"The value at revision 9, in full:", "note: &#39;calm&#39;",
		// Hostile text in a value stays text.
		"&lt;script&gt;alert(5)&lt;/script&gt;",
	} {
		if !strings.Contains(rs, want) {
			t.Errorf("the ReplicaSet's section lacks %q", want)
		}
	}
	if strings.Contains(page, "<script>alert(5)") {
		t.Error("a value's text is unescaped")
	}
	// managedFields are left out, as kubectl get -o yaml leaves them out,
	// and the page says so.
	if strings.Contains(rs, "managedFields") || strings.Contains(rs, "kube-controller-manager") || !strings.Contains(etcd, "leave out metadata.managedFields") {
		t.Error("managedFields are shown, or their absence is not said")
	}
	secret := section("etcd-3")
	for _, want := range []string{"revision 10", "deleted", "The last value, at revision 8, before the delete:", "password: &lt;redacted&gt;"} {
		if !strings.Contains(secret, want) {
			t.Errorf("the Secret's section lacks %q", want)
		}
	}
	// The Event objects are apart, after the objects.
	_, events, ok := strings.Cut(etcd, `<details class="etcdevents">`)
	if !ok || !strings.Contains(events, `id="etcd-1"`) || !strings.Contains(events, "Event objects (1)") || strings.Contains(events, `id="etcd-2"`) {
		t.Errorf("the Event objects are not apart after the objects")
	}

	// A recording made before values were read shows the table only.
	old := etcdRecording()
	for i := range old.Keys {
		old.Keys[i].Revisions = nil
	}
	page = readTree(t, func() string {
		out, _ := buildFixture(t, func(in *Input) { in.Recordings = []*record.Recording{old} })
		return out
	}())[RecordedPage("deployment")]
	if !strings.Contains(page, "/registry/replicasets/default/nginx-deployment-6c5f67b5f7") || strings.Contains(page, `class="etcdkey"`) || strings.Contains(page, "etcdctl get") {
		t.Error("a recording without values: the table should stand alone")
	}
}

// At desktop and phone width the etcd table's link leads to the key,
// whose values open and scroll inside themselves: the section is no wider
// than the page's column.
func TestBrowserRecordedEtcd(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	out, _ := buildFixture(t, func(in *Input) { in.Recordings = []*record.Recording{etcdRecording()} })
	srv := httptest.NewServer(http.FileServer(http.Dir(out)))
	defer srv.Close()
	art := artifacts(t)
	for _, width := range []int{1280, 390} {
		ctx := browser(t, width, 800)
		err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/recorded.html"), chromedp.WaitVisible(chromedp.CSS(`a[href="#etcd-2"]`)), chromedp.Click(`a[href="#etcd-2"]`))
		if err != nil {
			t.Fatal(err)
		}
		err = chromedp.Do(ctx, chromedp.Click(`#etcd-2 > summary`), chromedp.WaitVisible(chromedp.CSS(`#etcd-2 pre.ydiff`)))
		if err != nil {
			t.Fatalf("width %d: the ReplicaSet's changes do not show: %v", width, err)
		}
		// [hash followed, revisions, px the section's boxes pass its
		// column, values that overflow without scrolling, values that
		// overflow at all]
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](`(() => {
			const col = Math.ceil(document.getElementById("etcd").getBoundingClientRect().right);
			const boxes = Array.from(document.querySelectorAll("#etcd ~ *, #etcd ~ * *")).map(e => Math.ceil(e.getBoundingClientRect().right));
			const pres = Array.from(document.querySelectorAll("#etcd-2 pre")).filter(p => p.scrollWidth > p.clientWidth);
			return [location.hash === "#etcd-2" ? 1 : 0, document.querySelectorAll("#etcd-2 .revs > li").length, Math.max(...boxes) - col,
				pres.filter(p => !["auto", "scroll"].includes(getComputedStyle(p).overflowX)).length, pres.length];
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		if got[0] != 1 || got[1] != 3 || got[2] > 0 || got[3] > 0 {
			t.Errorf("width %d: hash followed %d, %d revisions (want 3), the etcd section %d px wider than its column, %d values overflowing it", width, got[0], got[1], got[2], got[3])
		}
		if width == 390 && got[4] == 0 {
			t.Error("no value is too wide for a phone: the fixture tests nothing")
		}
		if width == 390 {
			screenshot(t, ctx, art, "recorded-etcd-phone.png", false)
		}
	}
}
