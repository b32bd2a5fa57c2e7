package record

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// RunOptions say how to run a scenario.
type RunOptions struct {
	// Scenario is a name from Scenarios; "" is "deployment".
	Scenario string
	// Timeout bounds the scenario from the apply to the last event
	// (components starting have their own bounds); 0 is 3 minutes.
	Timeout time.Duration
	// Logf reports progress; nil is silent.
	Logf func(format string, args ...any)
	// KeepDir keeps the run directory (logs, certificates, the audit log)
	// for debugging, and says where it is.
	KeepDir bool

	// grace replaces stopGrace, and ports the free ports up picks, for
	// tests.
	grace time.Duration
	ports []int
}

// run is one recorded run: its directory, credentials and processes.
type run struct {
	bins  *Binaries
	opts  RunOptions
	dir   string
	pki   *pki
	procs []*process
	// ports of etcd (client, peer), the API server, the controller
	// manager, the scheduler and the kubelet.
	etcdPort, peerPort, apiPort, kcmPort, schedPort, kubeletPort int
	// held keeps the ports no component has bound yet (holdPorts).
	held     heldPorts
	client   *http.Client
	apiURL   string
	auditLog string
	// grace is stopGrace, shorter in tests.
	grace time.Duration
	// cover takes the counters at each phase boundary when the programs
	// were built with coverage; nil otherwise.
	cover *coverRun
	// crashed cancels Run's context with a component's failure when the
	// component exits before the run stops it; nil outside Run.
	crashed context.CancelCauseFunc
	// runtimeEnv tells the hollow kubelet's fake runtime what the
	// scenario's containers do (Scenario.runtimeEnv).
	runtimeEnv []string
	// netns is the network namespace kube-proxy runs in, for a scenario
	// with a Service; nil otherwise.
	netns *netns
}

func (r *run) logf(format string, args ...any) {
	if r.opts.Logf != nil {
		r.opts.Logf(format, args...)
	}
}

// Run starts the release's control plane and hollow node from bins on
// 127.0.0.1, runs the scenario, and returns what it recorded. Every process
// it started has ended and its temporary directory is gone when Run
// returns, whether it succeeded, failed, or ctx was cancelled (Ctrl-C).
// Its steps stay in one function so that the clean-up deferred at the top
// covers each of them, in the order the run takes them.
func Run(ctx context.Context, bins *Binaries, opts RunOptions) (rec *Recording, err error) {
	sc, err := scenarioNamed(opts.Scenario)
	if err != nil {
		return nil, err
	}
	if opts.Timeout == 0 {
		opts.Timeout = 3 * time.Minute
	}
	sweepRuns()
	dir, err := os.MkdirTemp("", runDirPrefix)
	if err != nil {
		return nil, withSpaceAdvice(fmt.Errorf("record: %w", err), os.TempDir())
	}
	// Every wait of the run, every request and kubectl, selects on ctx: a
	// component that exits cancels it, so the run ends at once with that
	// component's failure rather than at a timeout.
	ctx, crashed := context.WithCancelCause(ctx)
	defer crashed(nil)
	r := &run{bins: bins, opts: opts, dir: dir, grace: cmp.Or(opts.grace, stopGrace), crashed: crashed, runtimeEnv: sc.runtimeEnv()}
	defer func() {
		// Whatever a wait made of the cancelled context (context.Canceled,
		// a failed request or kubectl, the failure wrapped by a phase), the
		// error is the component's, alone. A component's own failure to
		// start keeps its more precise words.
		if cause := context.Cause(ctx); err != nil && errors.Is(cause, ErrComponent) && (!errors.Is(err, ErrComponent) || errors.Is(err, cause)) {
			err = cause
		}
		// A full disk under the run directory shows as a component's
		// failure with an empty log (its own words about the disk could
		// not be written), or as a write of the run's own files failing.
		if err != nil && !errors.Is(err, context.Canceled) {
			err = withSpaceAdvice(err, filepath.Dir(dir))
		}
		r.stopAll()
		// kube-proxy has stopped: nothing is left in the namespace.
		if r.netns != nil {
			r.netns.close()
		}
		if r.cover != nil {
			r.cover.stop()
		}
		if opts.KeepDir {
			r.logf("kept the run directory %s", dir)
			return
		}
		if rmErr := os.RemoveAll(dir); rmErr != nil && err == nil {
			err = fmt.Errorf("record: remove %s: %w", dir, rmErr)
		}
	}()
	// The pid file lets a later run sweep this directory if kubewalk is
	// killed before it can remove it.
	if err := os.WriteFile(filepath.Join(dir, "pid"), []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	for _, d := range []string{"home", "tmp", "pki", "logs", "etcd"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o700); err != nil {
			return nil, fmt.Errorf("record: %w", err)
		}
	}
	if bins.Coverage {
		r.cover = newCoverRun(ctx, filepath.Join(dir, "cover"))
	}
	// The namespace first: without root a service run fails at once.
	if sc.Service != "" {
		if r.netns, err = newNetns(); err != nil {
			return nil, err
		}
	}
	if err := r.up(ctx); err != nil {
		return nil, err
	}
	if err := r.phase(ctx, "startup"); err != nil {
		return nil, err
	}
	rec, err = r.scenario(ctx, sc)
	if err != nil {
		return nil, err
	}
	// A component that exited after the last wait fails the run as well.
	if err := context.Cause(ctx); err != nil {
		return nil, err
	}
	// The components are stopped before the audit log is read, so that
	// every entry is flushed and nothing more is appended.
	r.stopAll()
	if err := r.collectCoverage(rec); err != nil {
		return nil, err
	}
	if err := r.collectAudit(rec); err != nil {
		return nil, err
	}
	r.versions(ctx, rec)
	rec.attachEventAPIs()
	rec.sort()
	return rec, nil
}

// withSpaceAdvice adds to err, when the file system of tmp (the directory
// run directories are made in) is full, that it is and what to do: a
// component that ran out of space may say nothing, since its log is on
// that file system too.
func withSpaceAdvice(err error, tmp string) error {
	var st syscall.Statfs_t
	if syscall.Statfs(tmp, &st) != nil {
		return err
	}
	free := st.Bavail * uint64(st.Bsize)
	if free >= fullBelow {
		return err
	}
	return fmt.Errorf("%w\n(the file system of the run directory %s has no space left on device, %d KiB free: free some there, or set TMPDIR to a directory with room)", err, tmp, free>>10)
}

// fullBelow is the free space under which the run's file system counts as
// full: less than a component needs to write a line of its log.
const fullBelow = 64 << 10

// runDirPrefix names run directories in the temporary directory. A short
// path matters: the kubelet puts unix sockets under it, whose paths may
// not exceed 107 bytes.
const runDirPrefix = "kubewalk-record-"

// sweepRuns removes run directories of earlier runs whose kubewalk is no
// longer alive (killed before it could clean up). Its components died with
// it (Pdeathsig).
func sweepRuns() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), runDirPrefix+"*"))
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, "pid"))
		if err != nil {
			continue
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil || pid == os.Getpid() {
			continue
		}
		if _, err := os.Stat(filepath.Join("/proc", strconv.Itoa(pid))); errors.Is(err, os.ErrNotExist) {
			os.RemoveAll(d)
		}
	}
}

// stopAll stops every process, the last started first (the kubelet and
// controllers before the API server, the API server before etcd).
func (r *run) stopAll() {
	r.held.releaseAll()
	for i := len(r.procs) - 1; i >= 0; i-- {
		r.procs[i].stop(r.grace)
	}
}

// up starts etcd, the API server, the controller manager, the scheduler
// and the hollow kubelet, each waited for, as hack/local-up-cluster.sh
// starts them.
func (r *run) up(ctx context.Context) error {
	ports := r.opts.ports
	var err error
	if ports == nil {
		r.held, ports, err = holdPorts("etcd", "etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kubelet")
		if err != nil {
			return err
		}
	}
	r.etcdPort, r.peerPort, r.apiPort, r.kcmPort, r.schedPort, r.kubeletPort = ports[0], ports[1], ports[2], ports[3], ports[4], ports[5]
	if r.pki, err = newPKI(filepath.Join(r.dir, "pki")); err != nil {
		return fmt.Errorf("record: certificates: %w", err)
	}
	if r.cover != nil {
		r.cover.start = time.Now()
	}
	if err := r.startEtcd(ctx); err != nil {
		return err
	}
	if err := r.startAPIServer(ctx); err != nil {
		return err
	}
	kcm, err := r.startControllerManager()
	if err != nil {
		return err
	}
	sched, err := r.startScheduler()
	if err != nil {
		return err
	}
	kubelet, err := r.startKubelet()
	if err != nil {
		return err
	}
	if err := r.waitFor(ctx, kcm, "healthy (/healthz)", time.Minute, r.healthz(r.kcmPort)); err != nil {
		return err
	}
	if err := r.waitFor(ctx, sched, "healthy (/healthz)", time.Minute, r.healthz(r.schedPort)); err != nil {
		return err
	}
	if err := r.waitFor(ctx, kubelet, "a Ready node "+nodeName, 2*time.Minute, r.nodeReady); err != nil {
		return err
	}
	// kube-proxy runs on the node, once it is there.
	if r.netns != nil {
		if err := r.startKubeProxy(ctx); err != nil {
			return err
		}
	}
	// The namespace is ready for pods once the controller manager has
	// made its default ServiceAccount (the ServiceAccount admission plugin
	// rejects pods before) and published the cluster's CA in
	// kube-root-ca.crt (which every pod's token volume mounts). The
	// scenario starts then, so neither a FailedCreate of a young cluster
	// nor those writes of its own fall into the recording's scenario.
	for _, obj := range []string{"serviceaccounts/default", "configmaps/kube-root-ca.crt"} {
		err := r.waitFor(ctx, kcm, "the default namespace's "+obj, time.Minute, func(ctx context.Context) (bool, error) {
			code, _, err := r.get(ctx, "/api/v1/namespaces/default/"+obj)
			return code == http.StatusOK, err
		})
		if err != nil {
			return err
		}
	}
	return nil
}

func (r *run) startEtcd(ctx context.Context) error {
	client := fmt.Sprintf("http://127.0.0.1:%d", r.etcdPort)
	peer := fmt.Sprintf("http://127.0.0.1:%d", r.peerPort)
	p, err := r.start("etcd", r.bins.Path("etcd"),
		"--name=kubewalk",
		"--data-dir="+filepath.Join(r.dir, "etcd"),
		"--listen-client-urls="+client,
		"--advertise-client-urls="+client,
		"--listen-peer-urls="+peer,
		"--initial-advertise-peer-urls="+peer,
		"--initial-cluster=kubewalk="+peer,
		"--log-level=warn",
	)
	if err != nil {
		return err
	}
	return r.waitFor(ctx, p, "healthy (/health)", 30*time.Second, func(ctx context.Context) (bool, error) {
		req, _ := http.NewRequestWithContext(ctx, "GET", client+"/health", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return false, err
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK, nil
	})
}

// auditPolicy logs every write with its request and response bodies and
// every read (the watches among them) with its metadata; the
// RequestReceived stage adds nothing the later stages do not carry.
const auditPolicy = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: ["RequestReceived"]
rules:
- level: RequestResponse
  verbs: ["create", "update", "patch", "delete", "deletecollection"]
- level: Metadata
`

func (r *run) startAPIServer(ctx context.Context) error {
	pdir := r.pki.dir
	cert, key, err := r.pki.issue("apiserver", identity{user: "kube-apiserver"}, true)
	if err != nil {
		return fmt.Errorf("record: certificates: %w", err)
	}
	policy := filepath.Join(pdir, "audit-policy.yaml")
	if err := os.WriteFile(policy, []byte(auditPolicy), 0o644); err != nil {
		return fmt.Errorf("record: %w", err)
	}
	r.auditLog = filepath.Join(r.dir, "logs", "audit.log")
	r.apiURL = fmt.Sprintf("https://127.0.0.1:%d", r.apiPort)
	p, err := r.start("kube-apiserver", r.bins.Path("kube-apiserver"),
		fmt.Sprintf("--etcd-servers=http://127.0.0.1:%d", r.etcdPort),
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		fmt.Sprintf("--secure-port=%d", r.apiPort),
		"--tls-cert-file="+cert,
		"--tls-private-key-file="+key,
		"--client-ca-file="+r.pki.caFile,
		"--service-account-key-file="+r.pki.saKeyFile,
		"--service-account-signing-key-file="+r.pki.saKeyFile,
		"--service-account-issuer=https://kubernetes.default.svc.cluster.local",
		"--service-cluster-ip-range=10.0.0.0/24",
		"--authorization-mode=Node,RBAC",
		"--enable-admission-plugins=NodeRestriction",
		"--allow-privileged=true",
		// No endpoint for the kubernetes Service: its address would be
		// loopback, which an EndpointSlice may not hold.
		"--endpoint-reconciler-type=none",
		"--cert-dir="+filepath.Join(r.dir, "apiserver"),
		"--audit-policy-file="+policy,
		"--audit-log-path="+r.auditLog,
		"--audit-log-format=json",
	)
	if err != nil {
		return err
	}
	tlsCfg, err := r.pki.tlsConfig(adminID)
	if err != nil {
		// The admin's certificate is written with its kubeconfig, below.
		if _, err := r.pki.kubeconfig(adminID, r.apiURL); err != nil {
			return fmt.Errorf("record: certificates: %w", err)
		}
		if tlsCfg, err = r.pki.tlsConfig(adminID); err != nil {
			return fmt.Errorf("record: certificates: %w", err)
		}
	}
	r.client = &http.Client{Transport: &http.Transport{TLSClientConfig: tlsCfg}, Timeout: 10 * time.Second}
	return r.waitFor(ctx, p, "ready (/readyz)", 90*time.Second, func(ctx context.Context) (bool, error) {
		code, _, err := r.get(ctx, "/readyz")
		return code == http.StatusOK, err
	})
}

// componentArgs are the flags the controller manager and the scheduler
// share: their kubeconfig (also for delegated authentication and
// authorization), loopback serving on port, no leader election.
func (r *run) componentArgs(id identity, port int) ([]string, error) {
	kc, err := r.pki.kubeconfig(id, r.apiURL)
	if err != nil {
		return nil, fmt.Errorf("record: certificates: %w", err)
	}
	return []string{
		"--kubeconfig=" + kc,
		"--authentication-kubeconfig=" + kc,
		"--authorization-kubeconfig=" + kc,
		"--bind-address=127.0.0.1",
		fmt.Sprintf("--secure-port=%d", port),
		"--leader-elect=false",
	}, nil
}

func (r *run) startControllerManager() (*process, error) {
	args, err := r.componentArgs(controllerID, r.kcmPort)
	if err != nil {
		return nil, err
	}
	// As local-up-cluster.sh and real clusters run it: each controller
	// authenticates as its own service account, so the audit log names
	// system:serviceaccount:kube-system:deployment-controller.
	args = append(args,
		"--use-service-account-credentials",
		"--service-account-private-key-file="+r.pki.saKeyFile,
		"--root-ca-file="+r.pki.caFile,
		"--cluster-signing-cert-file="+r.pki.caFile,
		"--cluster-signing-key-file="+filepath.Join(r.pki.dir, "ca.key"),
		"--cert-dir="+filepath.Join(r.dir, "controller-manager"),
	)
	return r.start("kube-controller-manager", r.bins.Path("kube-controller-manager"), args...)
}

func (r *run) startScheduler() (*process, error) {
	args, err := r.componentArgs(schedulerID, r.schedPort)
	if err != nil {
		return nil, err
	}
	args = append(args, "--cert-dir="+filepath.Join(r.dir, "scheduler"))
	return r.start("kube-scheduler", r.bins.Path("kube-scheduler"), args...)
}

// startKubelet starts the hollow node: the release's kubelet code (pod
// workers, image manager, kuberuntime) over the release's fake CRI
// runtime, with the image service fake as well.
func (r *run) startKubelet() (*process, error) {
	kc, err := r.pki.kubeconfig(nodeID, r.apiURL)
	if err != nil {
		return nil, fmt.Errorf("record: certificates: %w", err)
	}
	return r.start("kubelet", r.bins.Path("kubelet"),
		"--morph=kubelet",
		"--name="+nodeName,
		"--kubeconfig="+kc,
		fmt.Sprintf("--kubelet-port=%d", r.kubeletPort),
		"--kubelet-read-only-port=0",
		"--use-host-image-service=false",
	)
}

// healthz checks a component's /healthz on its secure port (served without
// authentication to any client, as upstream's defaults allow).
func (r *run) healthz(port int) func(context.Context) (bool, error) {
	return func(ctx context.Context) (bool, error) {
		req, _ := http.NewRequestWithContext(ctx, "GET", fmt.Sprintf("https://127.0.0.1:%d/healthz", port), nil)
		resp, err := insecureLoopback.Do(req)
		if err != nil {
			return false, err
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK, nil
	}
}
