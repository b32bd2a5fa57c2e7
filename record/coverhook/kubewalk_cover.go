//go:build kubewalk_helper

package main

// This file is kubewalk's, added to the main package of each program of a
// recorded run built with coverage counters (go build -cover
// -covermode=atomic): through go build -overlay for the release's own
// commands, so the tree on disk stays unmodified, and beside kubewalk's
// helper mains. Nothing in these programs handles SIGUSR1 (the release's
// "SIGUSR1" strings are container stop-signal names of the API), so the
// signal is free to ask for a snapshot.

import (
	"os"
	"os/signal"
	"path/filepath"
	"runtime/coverage"
	"strconv"
	"syscall"
)

// init arms the snapshot handler when kubewalk asks for it: with
// KUBEWALK_COVERDIR set, the n-th SIGUSR1 writes the program's coverage
// meta-data and counters into $KUBEWALK_COVERDIR/<n>, resets the counters,
// and writes "done" there last (or "failed" with the error), so the
// recorder knows the directory is complete. init runs before main, so the
// handler is armed before any signal can come: without it SIGUSR1 would
// end the program.
func init() {
	dir := os.Getenv("KUBEWALK_COVERDIR")
	if dir == "" {
		return
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGUSR1)
	go func() {
		for n := 1; ; n++ {
			<-sig
			kubewalkSnapshot(filepath.Join(dir, strconv.Itoa(n)))
		}
	}()
}

// kubewalkSnapshot writes the counters into dir and clears them. A block
// that runs between the write and the clear is lost: the two follow each
// other within microseconds.
func kubewalkSnapshot(dir string) {
	err := os.MkdirAll(dir, 0o755)
	if err == nil {
		err = coverage.WriteMetaDir(dir)
	}
	if err == nil {
		err = coverage.WriteCountersDir(dir)
	}
	if err == nil {
		err = coverage.ClearCounters()
	}
	if err != nil {
		os.WriteFile(filepath.Join(dir, "failed"), []byte(err.Error()), 0o644)
		return
	}
	os.WriteFile(filepath.Join(dir, "done"), nil, 0o644)
}
