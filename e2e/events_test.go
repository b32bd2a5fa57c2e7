//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/source"
)

// eventReleases are the releases whose events are held to the figures
// below: the oldest the walkthroughs are checked at with every recorder
// shape, and the default.
var eventReleases = []string{"v1.31.0", source.DefaultTag}

// TestE2EEventsComplete holds every event site to a told message format
// or a message marked as set at run time with the values that reach it
// (a recorder wrapper's own call counts with those: its events are its
// callers'), for at least 95% of the sites; and every type to Normal,
// Warning or a type set at run time.
func TestE2EEventsComplete(t *testing.T) {
	for _, tag := range eventReleases {
		t.Run(tag, func(t *testing.T) {
			var events []fact.Event
			kubewalkJSON(t, &events, "list", "events", "--source", "goproxy", "--tag", tag, "-o", "json")
			if len(events) < 200 {
				t.Fatalf("%d events, want the releases' 240 and more", len(events))
			}
			told, withValues, wrappers := 0, 0, 0
			for _, e := range events {
				switch {
				case !e.IsDynamic("message"):
					told++
				case len(e.MessageValues) > 0:
					withValues++
				case e.Forwards:
					wrappers++
				}
				if e.Type != "Normal" && e.Type != "Warning" && !(e.Type == "" && e.IsDynamic("type")) {
					t.Errorf("%s:%d: type %q (%s) is neither Normal, Warning nor set at run time", e.At.Path, e.At.StartLine, e.Type, e.TypeExpr)
				}
				if e.IsDynamic("message") && e.MessageExpr == "" {
					t.Errorf("%s:%d: a message set at run time without the expression", e.At.Path, e.At.StartLine)
				}
			}
			share := float64(told+withValues+wrappers) / float64(len(events))
			t.Logf("%s: %d events: %d with a message format, %d set at run time with values, %d in recorder wrappers (%.1f%%)",
				tag, len(events), told, withValues, wrappers, 100*share)
			// The rest pass an error another function returned (the HPA's
			// err from metav1.LabelSelectorAsSelector), or a message an
			// event struct carries from where it was built (the
			// endpointslice reconciler's topology hint events, a root since
			// the service scenario): only the values that reach the call
			// count, and neither has any the call's code states.
			if share < 0.93 {
				t.Errorf("%.1f%% of event sites have a message format or values, want at least 93%%", 100*share)
			}
		})
	}
}

// TestE2EEventsKubelet holds the kubelet's helpers to what they record:
// Pulling through imageManager.logIt with its format, Created and Started
// through recordContainerEvent.
func TestE2EEventsKubelet(t *testing.T) {
	for _, tag := range eventReleases {
		t.Run(tag, func(t *testing.T) {
			var events []fact.Event
			kubewalkJSON(t, &events, "list", "events", "--source", "goproxy", "--tag", tag, "-o", "json")
			want := map[string]bool{"Pulling": false, "Pulled": false, "Created": false, "Started": false}
			for _, e := range events {
				if _, ok := want[e.Reason]; ok && e.Type == "Normal" && e.Message != "" && strings.HasPrefix(e.At.Path, "pkg/kubelet/") {
					want[e.Reason] = true
				}
			}
			for r, found := range want {
				if !found {
					t.Errorf("no kubelet %s event of type Normal with a message format", r)
				}
			}
		})
	}
}

var literalSymbol = regexp.MustCompile(`[A-Za-z_)\]]\$[0-9]`)

// TestE2ESiteReadableNames builds the default release's site: no page
// shows a func literal's $N, the garbage collector's informers read as
// any resource, and the deployment walkthrough's pull and start steps list
// Pulling and Created beside Pulled and Started.
func TestE2ESiteReadableNames(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	kubewalk(t, "build", "--source", "goproxy", "--out", out)
	err := filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if loc := literalSymbol.FindIndex(b); loc != nil {
			from := max(0, loc[0]-80)
			t.Errorf("%s shows a func literal's number: …%s…", p, b[from:min(len(b), loc[1]+20)])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	handlers := readPage(t, out, "handlers.html")
	if !strings.Contains(string(handlers), "any resource (dynamic informer)") || !strings.Contains(string(handlers), "AddFunc in deployment.NewDeploymentController (deployment_controller.go:") {
		t.Errorf("handlers page lacks the dynamic informers' label or a literal handler's name")
	}
	page := readPage(t, out, "walkthroughs/deployment.html")
	var reasons []string
	for _, m := range regexp.MustCompile(`<td><b>([A-Za-z]+)</b>`).FindAllSubmatch(page, -1) {
		if r := string(m[1]); !slices.Contains(reasons, r) {
			reasons = append(reasons, r)
		}
	}
	for _, r := range []string{"Pulling", "Pulled", "Created", "Started"} {
		if !slices.Contains(reasons, r) {
			t.Errorf("the deployment walkthrough's event tables list %v, not %s", reasons, r)
		}
	}
}

// readPage reads a page of the English site: at the root of a site of one
// language, under en/ of a site of several.
func readPage(t *testing.T, out, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(rel)))
	if os.IsNotExist(err) {
		b, err = os.ReadFile(filepath.Join(out, "en", filepath.FromSlash(rel)))
	}
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestE2EExplainKubectlWrite explains the audit record of kubectl's create
// of the Deployment: its own Helper.Create in the apply command, not a
// "not found".
func TestE2EExplainKubectlWrite(t *testing.T) {
	in := filepath.Join(t.TempDir(), "audit.jsonl")
	rec := `{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","auditID":"1","stage":"ResponseComplete","requestURI":"/apis/apps/v1/namespaces/default/deployments?fieldManager=kubectl-client-side-apply","verb":"create","user":{"username":"kubernetes-admin"},"userAgent":"kubectl/v1.26.1 (linux/amd64) kubernetes/8f94681","objectRef":{"resource":"deployments","namespace":"default","name":"nginx-deployment","apiGroup":"apps","apiVersion":"v1"},"responseStatus":{"metadata":{},"code":201}}` + "\n"
	if err := os.WriteFile(in, []byte(rec), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tag := range eventReleases {
		var exs []struct {
			Code []struct {
				Role string `json:"role"`
				Path string `json:"path"`
			} `json:"code"`
			Note string `json:"note"`
		}
		kubewalkJSON(t, &exs, "explain", "--source", "goproxy", "--tag", tag, "-o", "json", in)
		if len(exs) != 1 || len(exs[0].Code) == 0 || exs[0].Code[0].Path != "staging/src/k8s.io/kubectl/pkg/cmd/apply/apply.go" {
			t.Errorf("%s: kubectl's create of deployments explained as %+v", tag, exs)
		}
	}
}
