// Package record runs a release's own control plane on one machine and
// records what a scenario makes it do: the other half of how the blog posts
// learn Kubernetes, watching `kubectl get events --watch`, the API server's
// audit log and etcd while a Deployment rolls out.
//
// It is a stage beside the analyzer: it takes a source.Tree and returns
// plain data, a Recording. It knows nothing of facts or HTML; attributing
// each recorded item to the code that made it is explain.Attribute's job,
// shared by `kubewalk record` and the site.
//
//	tree, _ := source.Fetch(ctx, source.Options{Tag: "v1.36.3", Source: "goproxy", CacheDir: cache})
//	bins, _ := record.Build(ctx, tree, record.BuildOptions{CacheDir: cache}) // once per release and Go version
//	rec, _ := record.Run(ctx, bins, record.RunOptions{Scenario: "deployment"})
//	fmt.Println(len(rec.Events), rec.Audit[0].UserAgent) // how many events; who made the first audited request
//
//	// With coverage counters: which blocks ran in which phase.
//	cbins, _ := record.Build(ctx, tree, record.BuildOptions{CacheDir: cache, Coverage: true})
//	crec, _ := record.Run(ctx, cbins, record.RunOptions{Scenario: "rollout"})
//	fmt.Println(crec.Coverage.Phases[2].Name) // apply/replicaset
//
// # The programs
//
// Build compiles, from the tree's own workspace and nothing else the module
// proxy does not serve, the release's kube-apiserver,
// kube-controller-manager, kube-scheduler, kube-proxy and kubectl, and two programs of
// kubewalk's, built from the release's packages in a module beside the
// tree (the tree stays unmodified, so its analysis and hashes do not change):
//
//   - etcd: etcdmain.Main of the go.etcd.io/etcd/server/v3 the tree's
//     go.mod requires, and a "kubewalk-keys" mode that lists keys through
//     the etcd client with their envelope (protobuf behind k8s\x00, the
//     apiVersion and kind of the runtime.Unknown) and their history: a
//     watch from revision 1, each value decoded to JSON with the
//     release's client-go scheme, as etcd-io/auger decodes them.
//   - kubelet: a copy of the tree's cmd/kubemark, patched in five places
//     that must each occur once (kubemarkPatches), so a release whose
//     kubemark changed shape fails loudly. Kubernetes removed kubemark
//     from its repository in v1.38: for a release without it
//     (HasKubemark), the hollow node and the kubemark packages it imports
//     come from another release's tree (BuildOptions.Kubemark, the newest
//     patch of LastKubemark, which kubewalk record fetches), copied into
//     the helper module and built against the release's own kubelet and
//     build list. The kubelet code is the
//     release's — pod workers, image manager, kuberuntime — over the fake
//     CRI runtime the release ships (k8s.io/cri-client/pkg/fake, or
//     pkg/kubelet/cri/remote/fake before it moved); kubemark's
//     record.FakeRecorder, which drops every event, is replaced by the
//     real recorder, its server binds to loopback, and its root directory
//     (made in /tmp whatever TMPDIR says) moves into the run's. The fake
//     runtime runs no program and has every image: a scenario that needs
//     a container to exit or a pull to fail (Scenario.FakeRuntime) tells
//     it through the kubelet's environment (KUBEWALK_EXITS: image=code@delay;
//     KUBEWALK_PULL_FAILS: images), and the recording keeps what it was
//     told. The kubelet's handling of the exit or the failure is the
//     release's.
//
// They are stamped as hack/lib/version.sh stamps a release (-X on
// k8s.io/component-base/version and k8s.io/client-go/pkg/version), so
// /version and every user agent say the release. One go build compiles
// them all, sharing what they share; the result is cached per release, Go
// version and a hash of kubewalk's own sources and stamps under
// <CacheDir>/record/bin, written to a temporary directory and renamed into
// place, and serialised across processes by a lock file beside it.
//
// # The run
//
// Run starts the programs as hack/local-up-cluster.sh does, each in a
// process group of its own, on free ports of 127.0.0.1, in a directory of
// its own under the temporary directory: a CA and a client certificate per
// identity (kubeadm's kubernetes-admin, system:kube-controller-manager,
// system:kube-scheduler, system:node:node1), a service-account key, and an
// audit policy that logs writes at RequestResponse and reads at Metadata.
// The controller manager runs with --use-service-account-credentials, so
// each controller writes as its own service account, as on real clusters.
// Once the node is Ready and the default ServiceAccount exists, the
// scenario's manifest is applied with the release's kubectl, and Run waits,
// bounded by RunOptions.Timeout, until its Pods are Running and each has a
// Started event, then for a quiet moment in which no event arrives.
//
// # kube-proxy and its rules
//
// A scenario with a Service (Scenario.Service: "service") also runs the
// release's kube-proxy, started once the node is Ready, as the node's
// (--hostname-override), in nftables mode (beta and on by default from
// v1.31, GA in v1.33; v1.29 and v1.30 get the NFTablesProxyMode gate), so
// that every release shows the same kind of rules. Its rules must not
// touch the machine's: it runs in a network namespace the run makes and
// that ends with it (netns.go). The namespace is unnamed (nothing under
// /var/run/netns to leak): a goroutine locked to its OS thread, never the
// main thread, calls unshare(CLONE_NEWNET), brings lo up, and from then
// on runs whatever must happen inside, kube-proxy's start (its Pdeathsig
// follows that thread) and nft; when the run ends, kube-proxy stopped
// first, the goroutine returns still locked and the runtime ends the
// thread, leaving nothing in the namespace. kube-proxy reaches the API
// server, which listens on the root namespace's loopback only, through a
// listener on 127.0.0.1 inside the namespace whose connections kubewalk
// copies to and from the API server: no address but loopback anywhere.
// It authenticates as system:kube-proxy, the user of the bootstrap
// policy's system:node-proxier binding. Its healthz and metrics servers
// listen on the namespace's loopback; conntrack limits are left as they
// are (--conntrack-max-per-core=0). The scenario's apply then waits, after
// its pods run, until the Service has ready endpoints and the rules hold
// its ClusterIP and port and each endpoint's address (the "rules"
// boundary); the recording keeps the ruleset as nft list ruleset prints
// it, read in the namespace after the quiet moment (Recording.Rules).
// Without root, or without nft, the service scenario fails at once with
// ErrNetns; no other scenario starts kube-proxy.
//
// A component that exits before Run stops it, in whatever phase, ends the
// run at once: every wait selects on a context its exit cancels, and Run
// returns one ErrComponent naming it, with its exit status and the last
// lines of its log.
//
// Every process ends when Run returns, on success, error, timeout or a
// cancelled context (Ctrl-C): SIGTERM to the group, SIGKILL after a grace
// period (the hollow kubelet ignores SIGTERM), and Run waits until no
// member of the group runs. Each child also gets Pdeathsig, so a kill -9
// of kubewalk takes the components with it, and the next Run removes the
// directory such a kubewalk left (its pid file names a dead process).
//
// # The recording
//
// A Recording is JSON (Marshal, Parse), lists in a stable order, times in
// milliseconds from the scenario's first write by kubectl (negative for
// the cluster coming up): every Event object, every audited write once
// complete and every watch once started, the etcd keys of the scenario's
// objects, and each component's version and time to ready. Each key holds
// its revisions, deletes too, each value as YAML with every Secret's
// values and every token replaced (redact) before the recording exists;
// RevisionWrites links each revision to the audited write that made it,
// by the resourceVersion the write answered with. Each event
// takes the time and API group of its create in the audit log, which are
// exact where the event's own timestamps have a resolution of a second.
// Save keeps it in the cache as recordings/<tag>/<scenario>.json; Find
// looks there and then among the recordings kept with the walkthroughs.
//
// # Coverage: the code that ran
//
// With BuildOptions.Coverage (kubewalk record's default), Build compiles
// the programs with Go's coverage counters (go build -cover
// -covermode=atomic -coverpkg=…, CoverPackages), cached apart from the
// plain build under a name ending in -cover. The packages counted are
// BuildOptions.CoverRoots, which kubewalk record sets to the analyzer's
// roots and the walkthroughs' packages: the code the site shows and
// `kubewalk list coverage` lists (record does not import the analyzer;
// its caller passes them in). Every other package is compiled as in the
// plain programs, which keeps the build, the programs' counting and the
// recording smaller; without CoverRoots every package of the kubernetes
// module's cmd, pkg and plugin trees and of the staging modules but
// k8s.io/api is counted. Each
// main package holds kubewalk's hook (coverhook/kubewalk_cover.go):
// on SIGUSR1 it writes the program's counters into
// $KUBEWALK_COVERDIR/<n> with runtime/coverage.WriteMetaDir and
// WriteCountersDir, clears them (ClearCounters, which atomic mode
// allows) and writes a "done" file last. None of the programs handles
// SIGUSR1 itself. The release's five main packages are copied into the
// helper module for this, since the coverage runtime starts only in a
// counted main package and the cover tool ignores go build -overlay.
//
// Run then ends a phase at each boundary of the scenario: it signals every
// running program and waits for their "done" files (looked for every few
// milliseconds: a snapshot takes that long). kubectl, which exits
// after each command, writes its counters at exit into the phase's
// directory (GOCOVERDIR). The phases are
//
//	startup                  the programs' start until the node is Ready and the namespace has its ServiceAccount and CA
//	<step>/kubectl           the step's kubectl command returned ("apply", then the scenario's steps: scale-up, scale-down, set-image, delete)
//	<step>/replicaset        a ReplicaSet of the step's image has the step's size
//	<step>/pods              exactly that many pods of the image exist, none being deleted
//	<step>/bound             each of them has a node
//	<step>/running           each is Running with a Started event
//	<step>/replicasets-gone  (a step that deletes the scenario's objects) no ReplicaSet of its selector is left
//	<step>/pods-gone         and no pod, not even one being deleted
//	<step>/unschedulable     (a step whose pods cannot be scheduled, after replicaset and pods) each has a FailedScheduling event, none is bound
//	<step>/job               (a CronJob's step, first) the Job it made on schedule exists
//	<step>/started           (a step waiting for exits, after bound) each pod has a Started event
//	<step>/completed         (a Job's step, last) each pod Succeeded and the Job has its Completed event
//	<step>/backoff           (a crashing container's step, last) each container restarted and has a BackOff event
//	<step>/pull-backoff      (a step whose image cannot be pulled, after bound) each pod has a BackOff event
//	<step>/rules             (a scenario with a Service, its apply, last) kube-proxy's rules hold the Service and its endpoints
//	quiet                    no new event came for a moment; the run ends
//
// Boundaries are polled every 100 ms and a snapshot takes some
// milliseconds, so a phase may hold the first calls of the next one; the
// recording says so in Coverage.Note. Several boundaries passed at one
// poll make empty phases.
//
// Each phase's snapshots are read while the scenario goes on, one at a
// time and without holding up the next boundary's check, by kubewalk
// itself (covfile.go: the meta-data and counter files as Go's
// internal/coverage writes them, version 1; a program's meta-data is
// decoded once per run, a snapshot's counters cost what ran), and
// Recording.Coverage holds the result, what go tool covdata textfmt
// would show of the same files: blocks listed once per file
// (Coverage.Files: repository paths as the analyzer's, lines as
// differences, no columns), and per phase and program the blocks that ran
// with their counts (Coverage.Hits, sparse). A file counted but never run
// is kept without blocks; generated files (zz_generated.*, *.pb.go) are
// left out. Marshal writes the coverage an entry per line.
// internal/derive/coverage turns it into per-function and per-line
// counts.
package record
