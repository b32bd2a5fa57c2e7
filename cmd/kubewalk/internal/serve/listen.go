package serve

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// connWait bounds how long Serve waits, after Ctrl-C, for the requests in
// progress to finish before it closes their connections. The server's
// files are local and a request takes milliseconds, so one still running
// after this is stuck on a client that stopped reading. With
// Options.StopWait, which runs beside it, it keeps the whole shutdown
// under a second.
const connWait = 200 * time.Millisecond

// The limits a local client cannot hold the server past: ~20,000 idle
// connections used up its open files, and 400 clients that stopped reading
// a large page pinned a copy of it each. Variables for the tests.
var (
	// idleTimeout closes a kept-alive connection with no request.
	idleTimeout = time.Minute
	// writeWait is how long one write of a response (or of an event) may
	// wait on a client that does not read: a page is local and written in
	// milliseconds.
	writeWait = 30 * time.Second
	// maxConns is how many connections are served at once; one more is
	// closed as soon as it is accepted, so it fails at once rather than
	// waiting. A browser opens six or so, and one event stream a tab.
	maxConns = 256
)

// Serve serves s over HTTP on ln and rebuilds on every change in
// Options.Watch until ctx is done or the watcher fails. Then it closes s
// (the event streams, the build in progress, the build directories) and,
// meanwhile, the connections: it returns within the longer of StopWait
// and connWait, plus the removal of the directories. A build that did not
// stop is logged, not returned: it is left for the next server to clean
// up. Serve returns nil when ctx ended it.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	hs := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: idleTimeout}
	ln = &capListener{Listener: ln, free: make(chan struct{}, maxConns)}
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
	// Close and the shutdown side by side: removing the build
	// directories takes a third of a second for a whole release's site,
	// and the connections need not wait for it. Event streams never go
	// idle: Close ends them first thing, and the shutdown waits for
	// idle connections.
	closed := make(chan error, 1)
	go func() { closed <- s.Close() }()
	sctx, cancel := context.WithTimeout(context.Background(), connWait)
	defer cancel()
	if serr := hs.Shutdown(sctx); errors.Is(serr, context.DeadlineExceeded) {
		hs.Close()
	}
	if cerr := <-closed; cerr != nil {
		s.opts.Log.Warn("stopping", "err", cerr)
	}
	return err
}

// capListener accepts at most cap(free) connections at a time: one more is
// closed at once.
type capListener struct {
	net.Listener
	free chan struct{} // holds a token per connection open
}

func (l *capListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		select {
		case l.free <- struct{}{}:
			return &cappedConn{Conn: c, free: l.free}, nil
		default:
			c.Close()
		}
	}
}

type cappedConn struct {
	net.Conn
	free chan struct{}
	once sync.Once
}

func (c *cappedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { <-c.free })
	return err
}
