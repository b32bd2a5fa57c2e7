package analyzer

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"

	"github.com/kubewalk/kubewalk/internal/gotoolchain"
)

// goEnv runs `go env vars…` in dir with env, as the loader runs the go
// command (CGO_ENABLED=0), and returns one value per variable.
func goEnv(ctx context.Context, dir string, env []string, vars ...string) ([]string, error) {
	cmd := exec.CommandContext(ctx, "go", append([]string{"env"}, vars...)...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), env...), "CGO_ENABLED=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if err := gotoolchain.Refused("the release's go.mod", msg); err != nil {
			return nil, err
		}
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		return nil, fmt.Errorf("go env: %w: %s", err, msg)
	}
	vals := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(vals) != len(vars) {
		return nil, fmt.Errorf("go env %s: unexpected output %q", strings.Join(vars, " "), out)
	}
	return vals, nil
}

// checkToolchain fails when the go command in the tree's environment is a
// newer Go than the one kubewalk was built with: the loader parses that
// Go's standard library and the tree with its own go/parser and checks
// them with its own go/types, which do not know a newer language (Go
// 1.27's standard library has generic methods, which Go 1.26's parser
// rejects). The error (gotoolchain.ErrTooOld) names both and how to
// build kubewalk with the newer one, instead of a parse error in the
// standard library.
func checkToolchain(ctx context.Context, dir string, env []string) error {
	v, err := goEnv(ctx, dir, env, "GOVERSION")
	if err != nil {
		return err
	}
	return gotoolchain.Newer(v[0], runtime.Version())
}
