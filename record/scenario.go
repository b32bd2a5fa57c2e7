package record

import (
	"cmp"
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Scenario is something done to the cluster and what to wait for.
type Scenario struct {
	Name string
	// Doc says in a line what it does, for --help.
	Doc string
	// Manifest is applied with the release's kubectl apply -f; Steps are
	// run after it, in order.
	Manifest string
	Steps    []Step
	// Selector picks the scenario's pods, Replicas how many run once the
	// manifest is applied and Image the image they run.
	Namespace, Selector string
	Replicas            int
	Image               string
	// Keys are the etcd key prefixes of the scenario's objects.
	Keys []string
	// Unschedulable: the manifest's pods cannot be scheduled, so its
	// apply ends when each has a FailedScheduling event (Step).
	Unschedulable bool
	// Owner is the kind of the workload that owns the pods, when it is
	// not a Deployment: its steps have no ReplicaSet to wait for.
	Owner string
	// Until is what the manifest's apply waits for when it is not its
	// pods running (Step.Until).
	Until string
	// FakeRuntime tells the hollow node's fake runtime, which runs no
	// program and has every image, what the scenario's containers would
	// do: exit with a code some time after they start, or have no image
	// to pull.
	FakeRuntime *FakeRuntime
	// Service names a Service of the manifest that the release's
	// kube-proxy, run for this scenario alone in a network namespace of
	// the run's own, writes rules for: the apply ends when they hold its
	// ClusterIP and endpoints (the "rules" boundary), and the recording
	// keeps them (Recording.Rules).
	Service string
}

// FakeRuntime is what a scenario tells the hollow node's fake runtime of
// its containers.
type FakeRuntime struct {
	// Exits: the containers of an image exit.
	Exits []Exit `json:"exits,omitempty"`
	// PullFails are images whose pulls fail as a registry without them
	// would make them fail.
	PullFails []string `json:"pullFails,omitempty"`
}

// Exit is what a container of Image does in the fake runtime: it exits
// with Code AfterMillis after it started.
type Exit struct {
	Image       string `json:"image"`
	Code        int    `json:"code"`
	AfterMillis int64  `json:"afterMillis"`
}

// runtimeEnv is the hollow kubelet's environment for the fake runtime
// (helper/kubelet/kubewalk.go reads it).
func (sc Scenario) runtimeEnv() []string {
	f := sc.FakeRuntime
	if f == nil {
		return nil
	}
	var env []string
	if len(f.Exits) > 0 {
		var rules []string
		for _, e := range f.Exits {
			rules = append(rules, fmt.Sprintf("%s=%d@%dms", e.Image, e.Code, e.AfterMillis))
		}
		env = append(env, "KUBEWALK_EXITS="+strings.Join(rules, ","))
	}
	if len(f.PullFails) > 0 {
		env = append(env, "KUBEWALK_PULL_FAILS="+strings.Join(f.PullFails, ","))
	}
	return env
}

// What a step waits for, beside its pods running (Step.Until).
const (
	// UntilCompleted: every pod Succeeded, each with a Started event,
	// and a Job's Completed event.
	UntilCompleted = "completed"
	// UntilBackOff: every pod's container restarted at least once and a
	// BackOff event for it (the kubelet's CrashLoopBackOff).
	UntilBackOff = "backoff"
	// UntilPullBackOff: every pod with a BackOff event of its image's
	// pull (ImagePullBackOff).
	UntilPullBackOff = "pull-backoff"
)

// Step is a kubectl command and the state it leads to: exactly Replicas
// pods of the scenario, all Running with Image, each with a Started event,
// and no other pod left; or, when Gone, none of the scenario's
// ReplicaSets and pods left at all; or, when Unschedulable, exactly
// Replicas pods, none bound to a node, each with a FailedScheduling
// event.
type Step struct {
	// Name names the step's phases ("scale-up/pods"); the manifest's
	// apply is "apply".
	Name    string
	Kubectl []string
	// Manifest, when set, is what the step applies (kubectl apply -f),
	// in place of Kubectl.
	Manifest      string
	Replicas      int
	Image         string
	Gone          bool
	Unschedulable bool
	// Until, when set, is what the step waits for instead of Running
	// pods: UntilCompleted, UntilBackOff or UntilPullBackOff.
	Until string
}

// nginxDeployment is the Deployment of the Kubernetes documentation that
// the blog posts apply and watch.
const nginxDeployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx-deployment
  labels:
    app: nginx
spec:
  replicas: 3
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: nginx:1.14.2
        ports:
        - containerPort: 80
`

// pullSecret is the registry credential the imagepull scenario's pods
// name in imagePullSecrets: a Secret of type kubernetes.io/dockerconfigjson
// for a registry that cannot exist (".invalid"). Its value is what the
// recording must never hold (PullSecretValue).
const pullSecret = `apiVersion: v1
kind: Secret
metadata:
  name: regcred
type: kubernetes.io/dockerconfigjson
stringData:
  .dockerconfigjson: '{"auths":{"registry.invalid":{"auth":"` + PullSecretValue + `"}}}'
---
`

// PullSecretValue is the credential in the imagepull scenario's Secret,
// "kubewalk:not-a-password" in base64: a test looks for it, and for its
// encodings, in the recording.
const PullSecretValue = "a3ViZXdhbGs6bm90LWEtcGFzc3dvcmQ="

// withPullSecret is manifest, a Deployment, with its pods naming the
// pull secret.
func withPullSecret(manifest string) string {
	return strings.Replace(manifest, "      containers:\n", "      imagePullSecrets:\n      - name: regcred\n      containers:\n", 1)
}

// nginxKeys are the etcd keys of the Deployment's objects and events.
var nginxKeys = []string{
	"/registry/deployments/default/",
	"/registry/replicasets/default/",
	"/registry/pods/default/",
	"/registry/events/default/",
	"/registry/minions/" + nodeName,
}

// nginxService is a Service in front of nginxDeployment's pods. Its
// ClusterIP is fixed, so that the recorded rules are the same from one
// run to the next.
const nginxService = `apiVersion: v1
kind: Service
metadata:
  name: nginx
spec:
  type: ClusterIP
  clusterIP: 10.0.0.80
  selector:
    app: nginx
  ports:
  - name: http
    protocol: TCP
    port: 80
    targetPort: 80
`

// nginxDaemonSet runs nginx on every node (the run has one).
const nginxDaemonSet = `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: nginx-daemonset
  labels:
    app: nginx-ds
spec:
  selector:
    matchLabels:
      app: nginx-ds
  template:
    metadata:
      labels:
        app: nginx-ds
    spec:
      containers:
      - name: nginx
        image: nginx:1.14.2
`

// nginxStatefulSet is three nginx pods with stable names, started one
// after another (web-0, web-1, web-2).
const nginxStatefulSet = `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: web
  labels:
    app: nginx-sts
spec:
  serviceName: nginx
  replicas: 3
  selector:
    matchLabels:
      app: nginx-sts
  template:
    metadata:
      labels:
        app: nginx-sts
    spec:
      containers:
      - name: nginx
        image: nginx:1.14.2
`

// workloadKeys are the etcd keys of a workload of the resource's in the
// default namespace: it, its ControllerRevisions, its pods, the events
// and the node.
func workloadKeys(resource string) []string {
	return []string{"/registry/" + resource + "/default/", "/registry/controllerrevisions/default/", "/registry/pods/default/", "/registry/events/default/", "/registry/minions/" + nodeName}
}

// helloJob is a Job of one pod that prints a line and ends.
const helloJob = `apiVersion: batch/v1
kind: Job
metadata:
  name: hello
spec:
  backoffLimit: 4
  template:
    metadata:
      labels:
        app: hello
    spec:
      containers:
      - name: hello
        image: busybox:1.36
        command: ["sh", "-c", "echo Hello from the Job"]
      restartPolicy: Never
`

// helloCronJob runs a Job like helloJob every twelve seconds. The
// schedule is the cron library's interval form, which the cronjob
// controller supports beside the five fields (its nextScheduleTime counts
// an interval from the CronJob's creation), so the run does not wait up to
// a minute for the next one; twelve seconds leave the first Job time to
// complete before the second is due.
const helloCronJob = `apiVersion: batch/v1
kind: CronJob
metadata:
  name: hello
spec:
  schedule: "@every 12s"
  jobTemplate:
    spec:
      template:
        metadata:
          labels:
            app: hello-cron
        spec:
          containers:
          - name: hello
            image: busybox:1.36
            command: ["sh", "-c", "date; echo Hello from the CronJob"]
          restartPolicy: OnFailure
`

// crashingDeployment is a Deployment of one pod whose container exits
// with an error each time it starts.
const crashingDeployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: crasher
  labels:
    app: crasher
spec:
  replicas: 1
  selector:
    matchLabels:
      app: crasher
  template:
    metadata:
      labels:
        app: crasher
    spec:
      containers:
      - name: crasher
        image: busybox:1.36
        command: ["sh", "-c", "echo starting; exit 1"]
`

// jobExit is what busybox's shell does in the Job's and CronJob's pods,
// and crashExit in crashingDeployment's, as the fake runtime plays it.
var (
	jobExit   = Exit{Image: "busybox:1.36", Code: 0, AfterMillis: 2000}
	crashExit = Exit{Image: "busybox:1.36", Code: 1, AfterMillis: 1000}
)

// Scenarios are the scenarios Run knows.
var Scenarios = []Scenario{
	{
		Name:      "deployment",
		Doc:       "kubectl apply of an nginx Deployment of 3 replicas (nginx:1.14.2), until its Pods are Running and Started",
		Manifest:  nginxDeployment,
		Namespace: "default", Selector: "app=nginx", Replicas: 3, Image: "nginx:1.14.2",
		Keys: nginxKeys,
	},
	{
		Name:     "scale",
		Doc:      "the deployment scenario, then kubectl scale to 5 replicas and back to 2: ScalingReplicaSet up and down, SuccessfulDelete, the kubelet killing containers",
		Manifest: nginxDeployment,
		Steps: []Step{
			{Name: "scale-up", Kubectl: []string{"scale", "deployment/nginx-deployment", "--replicas=5"}, Replicas: 5, Image: "nginx:1.14.2"},
			{Name: "scale-down", Kubectl: []string{"scale", "deployment/nginx-deployment", "--replicas=2"}, Replicas: 2, Image: "nginx:1.14.2"},
		},
		Namespace: "default", Selector: "app=nginx", Replicas: 3, Image: "nginx:1.14.2",
		Keys: nginxKeys,
	},
	{
		Name:     "delete",
		Doc:      "the deployment scenario, then kubectl delete of the Deployment: the garbage collector deletes its ReplicaSet and then the Pods, in the background, and the kubelet kills the containers",
		Manifest: nginxDeployment,
		Steps: []Step{
			{Name: "delete", Kubectl: []string{"delete", "deployment/nginx-deployment"}, Gone: true},
		},
		Namespace: "default", Selector: "app=nginx", Replicas: 3, Image: "nginx:1.14.2",
		Keys: nginxKeys,
	},
	{
		Name:     "unschedulable",
		Doc:      "an nginx Deployment whose Pods request more CPU than the node has: the scheduler's FailedScheduling and its queue's retries, until the request is fixed by applying the manifest again",
		Manifest: strings.Replace(nginxDeployment, "        ports:\n", "        resources:\n          requests:\n            cpu: \"1000\"\n        ports:\n", 1),
		Steps: []Step{
			{Name: "fix", Manifest: strings.Replace(nginxDeployment, "        ports:\n", "        resources:\n          requests:\n            cpu: 100m\n        ports:\n", 1), Replicas: 3, Image: "nginx:1.14.2"},
		},
		Namespace: "default", Selector: "app=nginx", Replicas: 3, Image: "nginx:1.14.2",
		Keys:          nginxKeys,
		Unschedulable: true,
	},
	{
		Name:      "daemonset",
		Doc:       "kubectl apply of an nginx DaemonSet: the daemonset controller's ControllerRevision and a Pod for the node, until it runs",
		Manifest:  nginxDaemonSet,
		Namespace: "default", Selector: "app=nginx-ds", Replicas: 1, Image: "nginx:1.14.2",
		Keys:  workloadKeys("daemonsets"),
		Owner: "DaemonSet",
	},
	{
		Name:      "statefulset",
		Doc:       "kubectl apply of an nginx StatefulSet of 3 replicas: the statefulset controller creates web-0, web-1 and web-2 in order, each once the one before runs",
		Manifest:  nginxStatefulSet,
		Namespace: "default", Selector: "app=nginx-sts", Replicas: 3, Image: "nginx:1.14.2",
		Keys:  workloadKeys("statefulsets"),
		Owner: "StatefulSet",
	},
	{
		Name:     "imagepull",
		Doc:      "an nginx Deployment, with a pull secret, whose image tag does not exist: the kubelet's Failed, ErrImagePull and BackOff, until the manifest is applied again with nginx:1.14.2",
		Manifest: pullSecret + withPullSecret(strings.Replace(nginxDeployment, "nginx:1.14.2", "nginx:no-such-tag", 1)),
		Steps: []Step{
			{Name: "fix", Manifest: withPullSecret(nginxDeployment), Replicas: 3, Image: "nginx:1.14.2"},
		},
		Namespace: "default", Selector: "app=nginx", Replicas: 3, Image: "nginx:no-such-tag",
		Keys:        append(slices.Clip(nginxKeys), "/registry/secrets/default/regcred"),
		Until:       UntilPullBackOff,
		FakeRuntime: &FakeRuntime{PullFails: []string{"nginx:no-such-tag"}},
	},
	{
		Name:      "crashloop",
		Doc:       "a Deployment whose container exits with an error each time it starts: the kubelet restarts it with a back-off (BackOff, CrashLoopBackOff, the restart count)",
		Manifest:  crashingDeployment,
		Namespace: "default", Selector: "app=crasher", Replicas: 1, Image: "busybox:1.36",
		Keys:        []string{"/registry/deployments/default/", "/registry/replicasets/default/", "/registry/pods/default/", "/registry/events/default/", "/registry/minions/" + nodeName},
		Until:       UntilBackOff,
		FakeRuntime: &FakeRuntime{Exits: []Exit{crashExit}},
	},
	{
		Name:      "job",
		Doc:       "kubectl apply of a Job of one pod: the job controller creates it, the kubelet runs it to completion, the Job is Completed",
		Manifest:  helloJob,
		Namespace: "default", Selector: "app=hello", Replicas: 1, Image: "busybox:1.36",
		Keys:        []string{"/registry/jobs/default/", "/registry/pods/default/", "/registry/events/default/", "/registry/minions/" + nodeName},
		Owner:       "Job",
		Until:       UntilCompleted,
		FakeRuntime: &FakeRuntime{Exits: []Exit{jobExit}},
	},
	{
		Name:      "cronjob",
		Doc:       "kubectl apply of a CronJob scheduled @every 12s: twelve seconds later the cronjob controller creates a Job, which runs its pod to completion",
		Manifest:  helloCronJob,
		Namespace: "default", Selector: "app=hello-cron", Replicas: 1, Image: "busybox:1.36",
		Keys:        []string{"/registry/cronjobs/default/", "/registry/jobs/default/", "/registry/pods/default/", "/registry/events/default/", "/registry/minions/" + nodeName},
		Owner:       "CronJob",
		Until:       UntilCompleted,
		FakeRuntime: &FakeRuntime{Exits: []Exit{jobExit}},
	},
	{
		Name:      "service",
		Doc:       "the deployment scenario with a Service (ClusterIP, port 80) in front of it: the EndpointSlice, and the rules the release's kube-proxy writes in a network namespace of the run (needs root and nft)",
		Manifest:  nginxDeployment + "---\n" + nginxService,
		Namespace: "default", Selector: "app=nginx", Replicas: 3, Image: "nginx:1.14.2",
		Keys:    append(slices.Clone(nginxKeys), "/registry/services/specs/default/", "/registry/services/endpoints/default/", "/registry/endpointslices/default/"),
		Service: "nginx",
	},
	{
		Name:     "rollout",
		Doc:      "the deployment scenario, then a rolling update to nginx:1.16.1: a second ReplicaSet scaled up while the first is scaled down",
		Manifest: nginxDeployment,
		Steps: []Step{
			{Name: "set-image", Kubectl: []string{"set", "image", "deployment/nginx-deployment", "nginx=nginx:1.16.1"}, Replicas: 3, Image: "nginx:1.16.1"},
		},
		Namespace: "default", Selector: "app=nginx", Replicas: 3, Image: "nginx:1.14.2",
		Keys: nginxKeys,
	},
}

// ScenarioNames lists the names of Scenarios.
func ScenarioNames() []string {
	var names []string
	for _, s := range Scenarios {
		names = append(names, s.Name)
	}
	return names
}

func scenarioNamed(name string) (Scenario, error) {
	if name == "" {
		name = "deployment"
	}
	for _, s := range Scenarios {
		if s.Name == name {
			return s, nil
		}
	}
	return Scenario{}, fmt.Errorf("record: no scenario %q (known: %s)", name, strings.Join(ScenarioNames(), ", "))
}

// insecureLoopback checks the health of components on 127.0.0.1 whose
// serving certificates they made themselves: nothing but reachability is
// read through it.
var insecureLoopback = &http.Client{
	Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}},
	Timeout:   5 * time.Second,
}

// get reads an API path as the admin.
func (r *run) get(ctx context.Context, path string) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", r.apiURL+path, nil)
	if err != nil {
		return 0, nil, err
	}
	resp, err := r.client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	return resp.StatusCode, b, err
}

func (r *run) getJSON(ctx context.Context, path string, v any) error {
	code, b, err := r.get(ctx, path)
	if err != nil {
		return err
	}
	if code != http.StatusOK {
		return fmt.Errorf("GET %s: %d %s", path, code, strings.TrimSpace(string(b)))
	}
	return json.Unmarshal(b, v)
}

type condition struct {
	Type   string `json:"type"`
	Status string `json:"status"`
}

func (r *run) nodeReady(ctx context.Context) (bool, error) {
	var node struct {
		Status struct {
			Conditions []condition `json:"conditions"`
		} `json:"status"`
	}
	if err := r.getJSON(ctx, "/api/v1/nodes/"+nodeName, &node); err != nil {
		return false, err
	}
	return slices.Contains(node.Status.Conditions, condition{"Ready", "True"}), nil
}

// scenario applies the manifest and runs the steps, each time waiting
// until the pods settle, then reads events and etcd. It reads as the
// scenario goes, step by step, which is why it is one function.
func (r *run) scenario(ctx context.Context, sc Scenario) (*Recording, error) {
	manifest := filepath.Join(r.dir, sc.Name+".yaml")
	if err := os.WriteFile(manifest, []byte(sc.Manifest), 0o644); err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	deadline := time.Now().Add(r.opts.Timeout)
	steps := append([]Step{{Name: "apply", Kubectl: []string{"apply", "-f", manifest}, Replicas: sc.Replicas, Image: sc.Image, Unschedulable: sc.Unschedulable, Until: sc.Until}}, sc.Steps...)
	var events []rawEvent
	for _, st := range steps {
		if st.Manifest != "" {
			f := filepath.Join(r.dir, sc.Name+"-"+st.Name+".yaml")
			if err := os.WriteFile(f, []byte(st.Manifest), 0o644); err != nil {
				return nil, fmt.Errorf("record: %w", err)
			}
			st.Kubectl = []string{"apply", "-f", f}
		}
		r.logf("kubectl %s", strings.Join(st.Kubectl, " "))
		if _, err := r.output(ctx, r.bins.Path("kubectl"), st.Kubectl...); err != nil {
			return nil, fmt.Errorf("record: %w", err)
		}
		if err := r.phase(ctx, st.Name+"/kubectl"); err != nil {
			return nil, err
		}
		what := fmt.Sprintf("exactly %d Running pods (%s) of %s with Started events", st.Replicas, sc.Selector, st.Image)
		switch {
		case st.Gone:
			what = fmt.Sprintf("no ReplicaSet and no pod (%s) left", sc.Selector)
		case st.Unschedulable:
			what = fmt.Sprintf("exactly %d pods (%s), none bound, each with a FailedScheduling event", st.Replicas, sc.Selector)
		case st.Until == UntilCompleted:
			what = fmt.Sprintf("exactly %d pods (%s) of %s Succeeded, and the Job's Completed event", st.Replicas, sc.Selector, st.Image)
		case st.Until == UntilBackOff:
			what = fmt.Sprintf("exactly %d pods (%s) of %s, each restarted with a BackOff event", st.Replicas, sc.Selector, st.Image)
		case st.Until == UntilPullBackOff:
			what = fmt.Sprintf("exactly %d pods (%s) of %s, each with a BackOff event of its pull", st.Replicas, sc.Selector, st.Image)
		}
		r.logf("waiting for %s", what)
		// The boundaries are checked in order at each poll; several may
		// pass at once, and each ends a phase of its own.
		bounds := stepBoundaries(r, sc, st, &events)
		if st.Name == "apply" && sc.Service != "" {
			bounds = append(bounds, rulesBoundary(r, sc))
		}
		next := 0
		var phaseErr error
		// A check has a context of a few seconds; a snapshot, which may
		// take longer, has the run's.
		err := r.waitFor(ctx, nil, what, time.Until(deadline), func(cctx context.Context) (bool, error) {
			for next < len(bounds) {
				// The timeout bounds the scenario, snapshots included: a
				// check that began in time must not pass boundaries that
				// the cluster reached while counters were being written
				// after it.
				if time.Now().After(deadline) {
					return false, nil
				}
				ok, err := bounds[next].passed(cctx)
				if !ok || err != nil {
					return false, err
				}
				if phaseErr = r.phase(ctx, st.Name+"/"+bounds[next].name); phaseErr != nil {
					return true, nil
				}
				next++
			}
			return true, nil
		})
		if phaseErr != nil {
			return nil, phaseErr
		}
		if err != nil {
			return nil, fmt.Errorf("record: %s: %w", sc.Name, err)
		}
	}
	// Events are sent in batches by each component's broadcaster: a quiet
	// moment with no new event ends the run.
	for prev := -1; prev != len(events); {
		prev = len(events)
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(1500 * time.Millisecond):
		}
		var err error
		if events, err = r.events(ctx); err != nil {
			return nil, fmt.Errorf("record: %w", err)
		}
	}
	if err := r.phase(ctx, "quiet"); err != nil {
		return nil, err
	}
	keys, err := r.keys(ctx, sc)
	if err != nil {
		return nil, err
	}
	rec := &Recording{Format: Format, Tag: r.bins.Tag, Scenario: sc.Name, GoVersion: r.bins.GoVersion, Keys: keys, FakeRuntime: sc.FakeRuntime}
	if r.netns != nil {
		if rec.Rules, err = r.ruleset(ctx); err != nil {
			return nil, err
		}
	}
	rec.Events = convertEvents(events)
	return rec, nil
}

// boundary is a moment of a step that ends a phase.
type boundary struct {
	name   string
	passed func(context.Context) (bool, error)
}

// stepBoundaries are the moments of a step after its kubectl command
// returned, in the order they come: a ReplicaSet of the step's image and
// size; exactly that many pods of the image, none being deleted; each
// bound to a node; each Running with a Started event (settled, which
// leaves the events read in *events). It is one list of the boundaries,
// each a few lines, in the order a reader meets them on the run page.
func stepBoundaries(r *run, sc Scenario, st Step, events *[]rawEvent) []boundary {
	if st.Gone {
		return goneBoundaries(r, sc)
	}
	pods := func(ctx context.Context, bound bool) (bool, error) {
		ps, err := r.pods(ctx, sc)
		if err != nil {
			return false, err
		}
		n := 0
		for _, p := range ps.Items {
			if p.Metadata.DeletionTimestamp != nil || len(p.Spec.Containers) == 0 || p.Spec.Containers[0].Image != st.Image {
				continue
			}
			if bound && p.Spec.NodeName == "" {
				return false, nil
			}
			n++
		}
		return n == st.Replicas, nil
	}
	replicaset := boundary{"replicaset", func(ctx context.Context) (bool, error) {
		var rss struct {
			Items []struct {
				Spec struct {
					Replicas *int `json:"replicas"`
					Template struct {
						Spec struct {
							Containers []struct {
								Image string `json:"image"`
							} `json:"containers"`
						} `json:"spec"`
					} `json:"template"`
				} `json:"spec"`
			} `json:"items"`
		}
		if err := r.getJSON(ctx, "/apis/apps/v1/namespaces/"+sc.Namespace+"/replicasets?labelSelector="+sc.Selector, &rss); err != nil {
			return false, err
		}
		for _, rs := range rss.Items {
			cs := rs.Spec.Template.Spec.Containers
			if rs.Spec.Replicas != nil && *rs.Spec.Replicas == st.Replicas && len(cs) > 0 && cs[0].Image == st.Image {
				return true, nil
			}
		}
		return false, nil
	}}
	podsExist := boundary{"pods", func(ctx context.Context) (bool, error) { return pods(ctx, false) }}
	var first []boundary
	switch sc.Owner {
	case "": // a Deployment's pods come from a ReplicaSet
		first = append(first, replicaset)
	case "CronJob": // a CronJob's, from the Job it makes on schedule
		first = append(first, boundary{"job", func(ctx context.Context) (bool, error) {
			var jobs struct {
				Items []json.RawMessage `json:"items"`
			}
			err := r.getJSON(ctx, "/apis/batch/v1/namespaces/"+sc.Namespace+"/jobs", &jobs)
			return len(jobs.Items) > 0, err
		}})
	}
	first = append(first, podsExist)
	// withEvents is a boundary that reads the events first.
	withEvents := func(name string, passed func(context.Context, []rawEvent) (bool, error)) boundary {
		return boundary{name, func(ctx context.Context) (bool, error) {
			var err error
			if *events, err = r.events(ctx); err != nil {
				return false, err
			}
			return passed(ctx, *events)
		}}
	}
	bound := boundary{"bound", func(ctx context.Context) (bool, error) { return pods(ctx, true) }}
	started := withEvents("started", func(ctx context.Context, evs []rawEvent) (bool, error) {
		return r.everyPod(ctx, sc, st, evs, "Started", func(podItem) bool { return true })
	})
	switch st.Until {
	case UntilCompleted:
		return append(first, bound, started, withEvents("completed", func(ctx context.Context, evs []rawEvent) (bool, error) {
			done := slices.ContainsFunc(evs, func(e rawEvent) bool { return e.Reason == "Completed" && e.InvolvedObject.Kind == "Job" })
			ok, err := r.everyPod(ctx, sc, st, evs, "Started", func(p podItem) bool { return p.Status.Phase == "Succeeded" })
			return done && ok, err
		}))
	case UntilBackOff:
		return append(first, bound, started, withEvents("backoff", func(ctx context.Context, evs []rawEvent) (bool, error) {
			return r.everyPod(ctx, sc, st, evs, "BackOff", func(p podItem) bool {
				return len(p.Status.ContainerStatuses) > 0 && p.Status.ContainerStatuses[0].RestartCount > 0
			})
		}))
	case UntilPullBackOff:
		return append(first, bound, withEvents("pull-backoff", func(ctx context.Context, evs []rawEvent) (bool, error) {
			return r.everyPod(ctx, sc, st, evs, "BackOff", func(podItem) bool { return true })
		}))
	}
	if st.Unschedulable {
		return append(first, boundary{"unschedulable", func(ctx context.Context) (bool, error) {
			var err error
			if *events, err = r.events(ctx); err != nil {
				return false, err
			}
			return r.unschedulable(ctx, sc, st, *events)
		}})
	}
	return append(first, []boundary{
		{"bound", func(ctx context.Context) (bool, error) { return pods(ctx, true) }},
		{"running", func(ctx context.Context) (bool, error) {
			var err error
			if *events, err = r.events(ctx); err != nil {
				return false, err
			}
			return r.settled(ctx, sc, st, *events)
		}},
	}...)
}

// goneBoundaries are the moments of a step that deletes the scenario's
// objects: no ReplicaSet of its selector left (the garbage collector
// deleted it), then no pod (deleted, then gone once the kubelet killed
// its containers).
func goneBoundaries(r *run, sc Scenario) []boundary {
	none := func(path string) func(context.Context) (bool, error) {
		return func(ctx context.Context) (bool, error) {
			var list struct {
				Items []json.RawMessage `json:"items"`
			}
			if err := r.getJSON(ctx, path+"?labelSelector="+sc.Selector, &list); err != nil {
				return false, err
			}
			return len(list.Items) == 0, nil
		}
	}
	return []boundary{
		{"replicasets-gone", none("/apis/apps/v1/namespaces/" + sc.Namespace + "/replicasets")},
		{"pods-gone", none("/api/v1/namespaces/" + sc.Namespace + "/pods")},
	}
}

// podList is the scenario's pods as the API lists them.
type podList struct {
	Items []podItem `json:"items"`
}

// podItem is a pod of podList.
type podItem struct {
	Metadata struct {
		Name              string  `json:"name"`
		DeletionTimestamp *string `json:"deletionTimestamp"`
	} `json:"metadata"`
	Spec struct {
		NodeName   string `json:"nodeName"`
		Containers []struct {
			Image string `json:"image"`
		} `json:"containers"`
	} `json:"spec"`
	Status struct {
		Phase             string `json:"phase"`
		ContainerStatuses []struct {
			RestartCount int `json:"restartCount"`
		} `json:"containerStatuses"`
	} `json:"status"`
}

func (r *run) pods(ctx context.Context, sc Scenario) (*podList, error) {
	var pods podList
	if err := r.getJSON(ctx, "/api/v1/namespaces/"+sc.Namespace+"/pods?labelSelector="+sc.Selector, &pods); err != nil {
		return nil, err
	}
	return &pods, nil
}

// settled reports whether the scenario's pods are what st leads to:
// exactly st.Replicas of them, none being deleted, each Running st.Image
// with a Started event.
func (r *run) settled(ctx context.Context, sc Scenario, st Step, events []rawEvent) (bool, error) {
	return r.everyPod(ctx, sc, st, events, "Started", func(p podItem) bool {
		return p.Metadata.DeletionTimestamp == nil && p.Status.Phase == "Running" &&
			len(p.Spec.Containers) > 0 && p.Spec.Containers[0].Image == st.Image
	})
}

// unschedulable reports whether the scenario's pods are what an
// unschedulable st leads to: exactly st.Replicas of them, none bound to a
// node, each with a FailedScheduling event.
func (r *run) unschedulable(ctx context.Context, sc Scenario, st Step, events []rawEvent) (bool, error) {
	return r.everyPod(ctx, sc, st, events, "FailedScheduling", func(p podItem) bool { return p.Spec.NodeName == "" })
}

// everyPod reports whether the scenario has exactly st.Replicas pods,
// each with an event of reason among events and each as ok says.
func (r *run) everyPod(ctx context.Context, sc Scenario, st Step, events []rawEvent, reason string, ok func(podItem) bool) (bool, error) {
	pods, err := r.pods(ctx, sc)
	if err != nil {
		return false, err
	}
	if len(pods.Items) != st.Replicas {
		return false, nil
	}
	had := map[string]bool{}
	for _, e := range events {
		if e.Reason == reason && e.InvolvedObject.Kind == "Pod" && e.InvolvedObject.Namespace == sc.Namespace {
			had[e.InvolvedObject.Name] = true
		}
	}
	for _, p := range pods.Items {
		if !had[p.Metadata.Name] || !ok(p) {
			return false, nil
		}
	}
	return true, nil
}

// rawEvent is a core/v1 Event as the API returns it.
type rawEvent struct {
	Metadata struct {
		Name      string `json:"name"`
		Namespace string `json:"namespace"`
	} `json:"metadata"`
	InvolvedObject struct {
		Kind      string `json:"kind"`
		Namespace string `json:"namespace"`
		Name      string `json:"name"`
	} `json:"involvedObject"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
	Type    string `json:"type"`
	Source  struct {
		Component string `json:"component"`
		Host      string `json:"host"`
	} `json:"source"`
	ReportingComponent string    `json:"reportingComponent"`
	ReportingInstance  string    `json:"reportingInstance"`
	Action             string    `json:"action"`
	Count              int       `json:"count"`
	FirstTimestamp     time.Time `json:"firstTimestamp"`
	LastTimestamp      time.Time `json:"lastTimestamp"`
	EventTime          time.Time `json:"eventTime"`
	Series             *struct {
		Count            int       `json:"count"`
		LastObservedTime time.Time `json:"lastObservedTime"`
	} `json:"series"`
}

func (r *run) events(ctx context.Context) ([]rawEvent, error) {
	var list struct {
		Items []rawEvent `json:"items"`
	}
	if err := r.getJSON(ctx, "/api/v1/events?limit=5000", &list); err != nil {
		return nil, err
	}
	return list.Items, nil
}

// convertEvents turns API events into recorded ones; their times are
// absolute (Unix milliseconds) until the audit log gives the run's origin.
func convertEvents(raw []rawEvent) []Event {
	out := make([]Event, 0, len(raw))
	for _, e := range raw {
		ev := Event{
			Type:      e.Type,
			Reason:    e.Reason,
			Object:    ObjectRef{Kind: e.InvolvedObject.Kind, Namespace: e.InvolvedObject.Namespace, Name: e.InvolvedObject.Name},
			Message:   e.Message,
			Component: cmp.Or(e.Source.Component, e.ReportingComponent),
			Host:      e.Source.Host,
			Action:    e.Action,
			Count:     max(e.Count, 1),
			Name:      e.Metadata.Name,
			Namespace: e.Metadata.Namespace,
		}
		first, last := e.FirstTimestamp, e.LastTimestamp
		if !e.EventTime.IsZero() {
			first = e.EventTime
			last = e.EventTime
		}
		if e.Series != nil {
			ev.Count = e.Series.Count
			last = e.Series.LastObservedTime
		}
		if last.Before(first) {
			last = first
		}
		ev.At, ev.Last = first.UnixMilli(), last.UnixMilli()
		out = append(out, ev)
	}
	return out
}
