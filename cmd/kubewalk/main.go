// Command kubewalk turns the Kubernetes source at a release tag into a static
// website that walks a reader through what happens inside Kubernetes, each
// step linked to the code that does it.
//
// This package holds only the command line: flags, progress and exit codes.
// The work is done by the packages source, analyzer, walkthrough and site,
// glued together in internal/pipeline (and internal/sitebuild, which
// renders the site).
//
// Exit codes: 0 success, 1 failure, 2 usage error (bad flags or arguments).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// Exit codes, documented in the README and in `kubewalk --help`.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run executes the command line args and returns the exit code. Tests call
// it directly.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRootCmd(stdin, stdout, stderr)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	var ue *usageError
	if errors.As(err, &ue) {
		fmt.Fprintf(stderr, "kubewalk: %s\nRun '%s --help' for usage.\n", termSafe(ue.err.Error()), ue.cmd)
		return exitUsage
	}
	var se silentError
	if !errors.As(err, &se) {
		fmt.Fprintf(stderr, "kubewalk: %s\n", termSafe(err.Error()))
	}
	return exitFailure
}

// usageError marks an error in the command line itself (exit code 2).
type usageError struct {
	cmd string
	err error
}

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// silentError is a failure whose details were already printed (for example
// every file:line diagnostic of `kubewalk check`).
type silentError struct{ n int }

func (e silentError) Error() string { return fmt.Sprintf("%d problems", e.n) }
