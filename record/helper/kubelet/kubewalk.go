//go:build kubewalk_helper

package app

// This file is kubewalk's, added to a copy of the release's own
// cmd/kubemark/app. The copy is patched in five places only, each a call
// into this file, so the hollow kubelet is the release's code but for what
// a recorded run on one machine needs.

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"time"

	clientset "k8s.io/client-go/kubernetes"
	restclient "k8s.io/client-go/rest"
	internalapi "k8s.io/cri-api/pkg/apis"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	apitest "k8s.io/cri-api/pkg/apis/testing"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/kubemark"
)

// kubewalkUserAgent replaces kubemark's "hollow-kubelet": the binary is
// named kubelet, so client-go's default agent reads as a real node's
// ("kubelet/v1.36.3 (linux/amd64) kubernetes/…") in the audit log.
func kubewalkUserAgent() string { return restclient.DefaultKubernetesUserAgent() }

// kubewalkEndpoint replaces the fake runtime's endpoint, a socket in /tmp
// that a killed kubelet would leave behind, by one in the run's own
// temporary directory (TMPDIR, which kubewalk sets and removes).
func kubewalkEndpoint() (string, error) {
	return "unix://" + filepath.Join(os.TempDir(), "cri.sock"), nil
}

// kubewalkFix is called between kubemark.NewHollowKubelet and Run.
//
// kubemark gives the kubelet record.FakeRecorder, which drops every event:
// with Recorder nil, kubelet's RunKubelet makes the real recorder, which
// sends Pulling, Pulled, Created, Started through EventClient as a real
// node does. The kubelet's server binds to loopback only, its healthz
// port (fixed at 10248 otherwise) is off, and a cluster DNS address keeps
// the pods free of MissingClusterDNS warnings a real node would not give.
// The kubelet's root directory moves into the run's temporary directory
// (kubewalkRelocate).
func kubewalkFix(hk *kubemark.HollowKubelet, client clientset.Interface) {
	kubewalkRelocate(hk)
	hk.KubeletDeps.Recorder = nil
	hk.KubeletDeps.EventClient = client.CoreV1()
	hk.KubeletConfiguration.Address = "127.0.0.1"
	hk.KubeletConfiguration.HealthzPort = 0
	hk.KubeletConfiguration.ClusterDNS = []string{"10.0.0.10"}
	hk.KubeletConfiguration.ClusterDomain = "cluster.local"
}

// kubewalkRelocate moves the hollow kubelet's root directory into the
// run's temporary directory (TMPDIR, which kubewalk sets and removes):
// kubemark makes it in /tmp whatever TMPDIR says, and it would stay there
// after every run. Every path setting under the old root (the root itself,
// the static pods' and, where the release has it, the pod logs'
// directory) is rewritten, found by its value rather than its field's
// name, so this compiles at every release; nothing has used them yet.
func kubewalkRelocate(hk *kubemark.HollowKubelet) {
	old := filepath.Clean(hk.KubeletFlags.RootDirectory)
	if old == "." || filepath.Dir(old) == filepath.Clean(os.TempDir()) {
		return
	}
	root, err := os.MkdirTemp("", "hollow-kubelet.")
	if err != nil {
		klog.Fatalf("kubewalk: the kubelet's root directory: %v", err)
	}
	for _, v := range []any{hk.KubeletFlags, hk.KubeletConfiguration} {
		if err := kubewalkRebase(reflect.ValueOf(v).Elem(), old, root); err != nil {
			klog.Fatalf("kubewalk: the kubelet's root directory: %v", err)
		}
	}
	if err := os.RemoveAll(old); err != nil {
		klog.Fatalf("kubewalk: the kubelet's root directory: %v", err)
	}
}

// kubewalkRebase rewrites the string fields of the struct v (and of the
// structs it embeds) that name old or a path under it to the same path
// under root, and makes the directories they name there.
func kubewalkRebase(v reflect.Value, old, root string) error {
	for i := range v.NumField() {
		f := v.Field(i)
		switch {
		case f.Kind() == reflect.Struct && v.Type().Field(i).Anonymous:
			if err := kubewalkRebase(f, old, root); err != nil {
				return err
			}
		case f.Kind() == reflect.String && f.CanSet():
			rest, ok := strings.CutPrefix(f.String(), old)
			if !ok || (rest != "" && rest[0] != filepath.Separator) {
				continue
			}
			f.SetString(root + rest)
			if err := os.MkdirAll(root+rest, 0o750); err != nil {
				return err
			}
		}
	}
	return nil
}

// The fake runtime runs no program: a container it starts runs until the
// kubelet stops it, and every image pull succeeds at once. A scenario that
// needs a container to exit, or a pull to fail, says so through the
// kubelet's environment, which kubewalk sets from the scenario:
//
//	KUBEWALK_EXITS       image=code@delay,… : a container of image exits
//	                     with code delay after it started
//	KUBEWALK_PULL_FAILS  image,… : pulls of image fail as a registry's
//	                     "not found" would
//
// Everything else the kubelet does with such a container — noticing the
// exit, restarting it with a back-off, the pod's phase, the events — is
// the release's own code.

// kubewalkExit is a rule of KUBEWALK_EXITS.
type kubewalkExit struct {
	code  int32
	after time.Duration
}

// kubewalkRuntime starts ending the containers of the fake runtime
// service rs that KUBEWALK_EXITS names. (It takes the service, not the
// fake remote runtime, whose package moved between releases.)
func kubewalkRuntime(rs *apitest.FakeRuntimeService) {
	exits := map[string]kubewalkExit{}
	for _, rule := range strings.Split(os.Getenv("KUBEWALK_EXITS"), ",") {
		if rule == "" {
			continue
		}
		image, spec, ok1 := strings.Cut(rule, "=")
		code, delay, ok2 := strings.Cut(spec, "@")
		c, err1 := strconv.ParseInt(code, 10, 32)
		d, err2 := time.ParseDuration(delay)
		if !ok1 || !ok2 || err1 != nil || err2 != nil {
			klog.Fatalf("kubewalk: KUBEWALK_EXITS: %q is not image=code@delay", rule)
		}
		exits[image] = kubewalkExit{int32(c), d}
	}
	if len(exits) > 0 {
		go kubewalkEndContainers(rs, exits)
	}
}

// kubewalkEndContainers marks the running containers whose image has an
// exit rule as exited once their delay has passed, as a runtime reports
// a process that ended: the kubelet's relist finds them so.
func kubewalkEndContainers(rs *apitest.FakeRuntimeService, exits map[string]kubewalkExit) {
	for range time.Tick(100 * time.Millisecond) {
		now := time.Now()
		rs.Lock()
		for _, c := range rs.Containers {
			if c.State != runtimeapi.ContainerState_CONTAINER_RUNNING || c.Image == nil {
				continue
			}
			e, ok := exits[c.Image.Image]
			if !ok || now.Sub(time.Unix(0, c.StartedAt)) < e.after {
				continue
			}
			c.State = runtimeapi.ContainerState_CONTAINER_EXITED
			c.FinishedAt = now.UnixNano()
			c.ExitCode = e.code
			c.Reason = "Completed"
			if e.code != 0 {
				c.Reason = "Error"
			}
		}
		rs.Unlock()
	}
}

// kubewalkImageService is the fake image service with the pulls of the
// images KUBEWALK_PULL_FAILS names failing.
type kubewalkImageService struct {
	*apitest.FakeImageService
	fails map[string]bool
}

func (s kubewalkImageService) PullImage(ctx context.Context, image *runtimeapi.ImageSpec, auth *runtimeapi.AuthConfig, podSandboxConfig *runtimeapi.PodSandboxConfig) (string, error) {
	if s.fails[image.GetImage()] {
		return "", errors.New("image not found (the recorded run's fake runtime has no such image)")
	}
	return s.FakeImageService.PullImage(ctx, image, auth, podSandboxConfig)
}

// kubewalkImages is the kubelet's image service: the fake one, or
// kubewalkImageService when KUBEWALK_PULL_FAILS names images.
func kubewalkImages(f *apitest.FakeImageService) internalapi.ImageManagerService {
	fails := map[string]bool{}
	for _, image := range strings.Split(os.Getenv("KUBEWALK_PULL_FAILS"), ",") {
		if image != "" {
			fails[image] = true
		}
	}
	if len(fails) == 0 {
		return f
	}
	return kubewalkImageService{f, fails}
}
