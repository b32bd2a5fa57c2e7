//go:build e2e

package e2e

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/kubewalk/kubewalk/record"
	"github.com/kubewalk/kubewalk/source"
)

// etcdTags are the releases TestE2EEtcd records: the default, with
// coverage counters as kubewalk record builds by default, and an older
// one with its plain programs.
var etcdTags = []string{source.DefaultTag, "v1.34.4"}

// secretLike is what a secret value looks like wherever it lands: a
// service account token (a JWT, its header the base64 of `{"alg"`) or a
// private key. (A bootstrap token's shape, six and sixteen characters,
// is also that of some generated names.)
var secretLike = regexp.MustCompile(`eyJhbGci|PRIVATE KEY`)

// TestE2EEtcd records the deployment scenario and reads what etcd
// stored: the Deployment's key holds each of its revisions decoded with
// the release's scheme, each made by an audited write that answered with
// it as its resourceVersion; every revision of every key is linked to a
// write; and no secret value is in the recording.
func TestE2EEtcd(t *testing.T) {
	for _, tag := range etcdTags {
		t.Run(tag, func(t *testing.T) {
			rec := recordEtcd(t, tag, "deployment")
			dep := etcdKey(t, rec, "/registry/deployments/default/nginx-deployment")
			if len(dep.Revisions) < 2 {
				t.Fatalf("the Deployment's key has %d revisions, want its create and the controller's status updates", len(dep.Revisions))
			}
			if last := dep.Revisions[len(dep.Revisions)-1]; last.Revision != dep.ModRevision || last.Version != dep.Version {
				t.Errorf("the last revision %d (version %d) is not the key's %d (version %d)", last.Revision, last.Version, dep.ModRevision, dep.Version)
			}
			for i, rev := range dep.Revisions {
				var obj struct {
					APIVersion string `json:"apiVersion"`
					Kind       string `json:"kind"`
					Metadata   struct {
						Name            string `json:"name"`
						ResourceVersion string `json:"resourceVersion"`
					} `json:"metadata"`
					Spec struct {
						Replicas int `json:"replicas"`
					} `json:"spec"`
				}
				if err := yaml.Unmarshal([]byte(rev.YAML), &obj); err != nil || rev.Error != "" {
					t.Fatalf("revision %d: %v %s\n%s", rev.Revision, err, rev.Error, rev.YAML)
				}
				if obj.APIVersion != "apps/v1" || obj.Kind != "Deployment" || obj.Metadata.Name != "nginx-deployment" || obj.Spec.Replicas != 3 {
					t.Errorf("revision %d decodes as %+v", rev.Revision, obj)
				}
				if obj.Metadata.ResourceVersion != "" {
					t.Errorf("revision %d: etcd stores no resourceVersion, the value holds %q", rev.Revision, obj.Metadata.ResourceVersion)
				}
				if rev.Version != int64(i+1) {
					t.Errorf("revision %d has version %d, want %d: a revision is missing", rev.Revision, rev.Version, i+1)
				}
			}
			writes := rec.RevisionWrites(*dep)
			for i, w := range writes {
				rev := dep.Revisions[i].Revision
				if w.Audit < 0 || w.ByOrder || rec.Audit[w.Audit].ResourceVersion != strconv.FormatInt(rev, 10) {
					t.Errorf("revision %d of the Deployment: no audited write answered with it (%+v)", rev, w)
				}
			}
			if w := writes[0].Audit; w < 0 || rec.Audit[w].Verb != "create" || !strings.HasPrefix(rec.Audit[w].UserAgent, "kubectl/") {
				t.Errorf("the Deployment's first revision was not made by kubectl's create (%+v)", writes[0])
			}
		})
	}
	// The delete scenario: the Deployment's key ends deleted, by
	// kubectl's delete; the pods' graceful deletes are linked too.
	t.Run("delete", func(t *testing.T) {
		rec := recordEtcd(t, source.DefaultTag, "delete")
		dep := etcdKey(t, rec, "/registry/deployments/default/nginx-deployment")
		last := dep.Revisions[len(dep.Revisions)-1]
		if !dep.Deleted || !last.Deleted || last.Version != 0 || dep.ModRevision != last.Revision {
			t.Fatalf("the Deployment's key: deleted %v, last revision %+v", dep.Deleted, last)
		}
		ws := rec.RevisionWrites(*dep)
		if w := ws[len(ws)-1].Audit; w < 0 || rec.Audit[w].Verb != "delete" || !strings.HasPrefix(rec.Audit[w].UserAgent, "kubectl/") {
			t.Errorf("the Deployment's delete was not linked to kubectl's delete (%+v)", ws[len(ws)-1])
		}
	})
}

// recordEtcd records a scenario at tag and checks what holds for every
// recording: every revision of every key decoded (but deletes) and
// linked to an audited write, and no secret value anywhere.
func recordEtcd(t *testing.T, tag, scenario string) *record.Recording {
	t.Helper()
	args := []string{"record", "--source", "goproxy", "--tag", tag, "--scenario", scenario, "-o", "json"}
	if tag != source.DefaultTag {
		args = append(args, "--coverage=false")
	}
	out, _ := kubewalk(t, args...)
	var r recorded
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	rec := r.Recording
	n := 0
	for _, k := range rec.Keys {
		for i, w := range rec.RevisionWrites(k) {
			n++
			if w.Audit < 0 {
				t.Errorf("%s at revision %d: no audited write", k.Key, k.Revisions[i].Revision)
			}
			if k.Revisions[i].YAML == "" && !k.Revisions[i].Deleted {
				t.Errorf("%s at revision %d: not decoded: %s", k.Key, k.Revisions[i].Revision, k.Revisions[i].Error)
			}
			if k.Kind == "Secret" && k.Revisions[i].YAML != "" && !strings.Contains(k.Revisions[i].YAML, record.Redacted) {
				t.Errorf("%s at revision %d: a Secret's value is not redacted", k.Key, k.Revisions[i].Revision)
			}
		}
	}
	t.Logf("%s %s: %d keys, %d revisions", tag, scenario, len(rec.Keys), n)
	if m := secretLike.FindString(out); m != "" {
		t.Errorf("the recording holds something secret: %q", m)
	}
	return rec
}

func etcdKey(t *testing.T, rec *record.Recording, key string) *record.Key {
	t.Helper()
	for i := range rec.Keys {
		if rec.Keys[i].Key == key {
			return &rec.Keys[i]
		}
	}
	t.Fatalf("no key %s", key)
	return nil
}
