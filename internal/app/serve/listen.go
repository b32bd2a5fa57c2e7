package serve

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"
)

// connWait bounds how long Serve waits, after Close, for the requests in
// progress to finish before it closes their connections. With
// Options.StopWait it keeps the whole shutdown under a second: the
// server's files are local and a request takes milliseconds, so one still
// running after this is stuck on a client that stopped reading.
const connWait = 200 * time.Millisecond

// Serve serves s over HTTP on ln and rebuilds on every change in
// Options.Watch until ctx is done or the watcher fails; then it closes s
// (ending the event streams and the build in progress) and the
// connections, within StopWait plus connWait. A build that
// did not stop is logged, not returned: it is left for the next server to
// clean up. Serve returns nil when ctx ended it.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	hs := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	werr := make(chan error, 1)
	go func() { werr <- s.Watch(wctx) }()
	serr := make(chan error, 1)
	go func() { serr <- hs.Serve(ln) }()
	var err error
	select {
	case <-ctx.Done():
	case err = <-werr:
		if err != nil {
			err = fmt.Errorf("watching %s: %w", strings.Join(s.opts.Watch, ", "), err)
		}
	case err = <-serr:
	}
	stop()
	// Event streams never go idle: Close ends them before the shutdown
	// waits for idle connections.
	if cerr := s.Close(); cerr != nil {
		s.opts.Log.Warn("stopping", "err", cerr)
	}
	sctx, cancel := context.WithTimeout(context.Background(), connWait)
	defer cancel()
	if serr := hs.Shutdown(sctx); errors.Is(serr, context.DeadlineExceeded) {
		hs.Close()
	}
	return err
}
