// Package serve is kubewalk's preview server: it serves a built site over
// HTTP, rebuilds it when a watched directory changes, and reloads the
// pages open in a browser.
//
// The server knows nothing of how a site is built: Options.Build renders
// one into a directory (cmd/kubewalk passes sitebuild.Rebuild over the
// release already analysed, so a Markdown edit re-resolves the
// walkthroughs and renders again only the pages it can change, and never
// reloads packages). Builds rotate through three directories under a
// private root (in Options.Dir, kubewalk's cache, never a shared /tmp):
// the one served, the one served before it (a request that started just
// before the switch may still read it), and the next build's, which may
// update what it finds there and is switched to only when it succeeds, so
// a broken edit leaves the last good site served. The root is locked while
// the server runs; the next server removes the roots no one holds, which
// only a killed server leaves.
//
// Live reload is Server-Sent Events: every HTML response gets one script
// tag (/_kubewalk/reload.js) inserted before </body>; the script listens
// on /_kubewalk/events and reloads the page when a newer build is
// published, or overlays the build error (file:line: message, as the
// walkthrough checker prints it) on the last good page when a build
// fails. The files on disk never contain the script: it is added to
// responses only.
//
// Paths are served through an os.Root, so nothing outside the site
// directory can be read, whatever the request (".." segments, encoded or
// double-encoded dots, backslashes, symlinks); such requests are refused
// with 400 before the file system is asked.
//
// The server answers only requests addressed to it as this machine's
// browser reaches it — a Host of 127.0.0.1, localhost or [::1] (or the
// address it was reached at) with its port — so a page elsewhere that
// rebinds its own name to 127.0.0.1 cannot read the preview; the event
// stream refuses requests from another origin; every response forbids
// content sniffing and carries a Content-Security-Policy that allows
// the site's own scripts and nothing else. Local clients cannot hold it
// either: it serves at most maxConns connections at once, closes idle
// ones, drops a client that stops reading a response, and writes pages
// from their files rather than from copies in memory.
//
// A watched directory removed and made again is watched again (its parent
// is watched for it); cmd/kubewalk reads it through walkthrough.DirFS,
// which then reads the new one.
//
//	s, err := serve.New(serve.Options{Build: build, Watch: []string{"walkthroughs"}})
//	defer s.Close()
//	s.Rebuild(ctx)
//	s.Serve(ctx, ln) // until Ctrl-C, rebuilding as the walkthroughs change
package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"io/fs"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/kubewalk/kubewalk/internal/disk/safedir"
)

// Prefix is the URL path prefix of the server's own endpoints; a site
// never has a top-level directory of this name.
const Prefix = "/_kubewalk/"

// Options configure a Server.
type Options struct {
	// Build renders a site into out: a directory that does not exist
	// yet, or holds what an earlier call left there (a site, or what a
	// failed build left), for Build to replace or update in place
	// (site.Options.InPlace) — nothing serves it meanwhile. Its error is
	// shown in the browser and logged.
	Build func(ctx context.Context, out string) error
	// Watch are directories whose changes (recursively) trigger a rebuild.
	Watch []string
	// Debounce is how long to wait after a change for more changes before
	// rebuilding (editors save in several writes); 0 means 25ms.
	Debounce time.Duration
	// Log receives build results and watcher errors; nil discards them.
	Log *slog.Logger
	// Dir is where the server keeps its build directories: one directory
	// of its own inside, removed by Close. "" means kubewalk's directory
	// in the user's cache (os.UserCacheDir).
	Dir string
	// StopWait bounds how long Close waits for a build to stop after
	// cancelling it; 0 means 400ms. A build blocked where no context
	// reaches must not keep Ctrl-C from ending the server, and Serve's
	// whole shutdown (this wait, then the connections') must fit in the
	// second a user waits after Ctrl-C.
	StopWait time.Duration
}

// Server serves the latest successful build and publishes rebuilds.
type Server struct {
	opts Options
	tmp  string // private root of the build directories

	lock *safedir.Lock // held on tmp while the server runs
	// building holds a token while a build runs: one build at a time. A
	// channel, not a mutex, so that Rebuild and Close can stop waiting
	// for a build stuck where no context reaches.
	building chan struct{}
	n        int // builds started

	mu       sync.Mutex
	cur      string // directory of the site served; "" before a build succeeded
	prev     string // the one before, kept as it is while requests may still read it
	gen      int    // build number of cur
	buildErr error  // the last build's error; nil when it succeeded
	subs     map[chan message]struct{}
	done     chan struct{}
	closed   bool
	cancel   context.CancelFunc // of the build running, nil when none

	// Published, when set, is called after each build with its outcome
	// (tests and benchmarks wait on it).
	published func(gen int, err error)
}

type message struct {
	event string
	data  string
}

// New returns a Server with no site yet: call Rebuild.
func New(opts Options) (*Server, error) {
	if opts.Build == nil {
		return nil, errors.New("serve: no Build function")
	}
	if opts.Debounce <= 0 {
		opts.Debounce = 25 * time.Millisecond
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.StopWait <= 0 {
		opts.StopWait = 400 * time.Millisecond
	}
	if opts.Dir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			return nil, fmt.Errorf("serve: no directory to build in: %w", err)
		}
		opts.Dir = filepath.Join(cache, "kubewalk", "serve")
	}
	tmp, lock, err := makeRoot(opts.Dir, opts.Log)
	if err != nil {
		return nil, err
	}
	return &Server{opts: opts, tmp: tmp, lock: lock, building: make(chan struct{}, 1),
		subs: map[chan message]struct{}{}, done: make(chan struct{})}, nil
}

// rootPrefix names the servers' directories in Options.Dir.
const rootPrefix = "kubewalk-serve-"

// makeRoot makes the server's own directory in dir and locks it, after
// removing those of servers that were killed (no one holds their lock),
// all under the lock of dir, so no other server's sweep can take the new
// one for a leftover before it is locked.
func makeRoot(dir string, log *slog.Logger) (string, *safedir.Lock, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", nil, err
	}
	dl, err := safedir.LockDir(context.Background(), dir)
	if err != nil {
		return "", nil, err
	}
	defer dl.Unlock()
	removed, err := safedir.Sweep(dir, rootPrefix+"*")
	for _, r := range removed {
		log.Info("removed the build directory of a kubewalk serve that was killed", "dir", r)
	}
	if err != nil {
		log.Warn("could not remove the build directory of a kubewalk serve that was killed", "err", err)
	}
	tmp, err := os.MkdirTemp(dir, rootPrefix)
	if err != nil {
		return "", nil, err
	}
	l, err := safedir.TryLockDir(tmp)
	if err != nil {
		os.RemoveAll(tmp)
		return "", nil, err
	}
	return tmp, l, nil
}

// Close ends the event streams, stops a build in progress and removes
// every build directory. A build that does not stop within
// Options.StopWait (one blocked where its context does not reach) is
// left running, and its directory for the next server to remove.
func (s *Server) Close() error {
	s.mu.Lock()
	if !s.closed {
		s.closed = true
		close(s.done)
	}
	cancel := s.cancel
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	select {
	case s.building <- struct{}{}:
	case <-time.After(s.opts.StopWait):
		return fmt.Errorf("serve: a build did not stop within %s of being cancelled; leaving %s to the next kubewalk serve", s.opts.StopWait, s.tmp)
	}
	defer func() { <-s.building }()
	if s.lock == nil {
		return nil // closed before
	}
	err := os.RemoveAll(s.tmp)
	s.lock.Unlock()
	s.lock = nil
	return err
}

// Dir returns the directory of the site being served, "" before the first
// successful build.
func (s *Server) Dir() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cur
}

// Err returns the last build's error, nil when it succeeded.
func (s *Server) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buildErr
}

// Rebuild builds the site into a new directory and, when the build
// succeeds, serves it and tells every open page to reload; when it fails,
// keeps serving the previous site and shows the error in every open page.
// It returns ctx's error as soon as ctx is done, even while a build
// stuck where no context reaches runs on: that build keeps the next one
// waiting until it returns, and Close gives up on it after StopWait.
func (s *Server) Rebuild(ctx context.Context) error {
	select {
	case s.building <- struct{}{}:
	case <-s.done:
		return errClosed
	case <-ctx.Done():
		return ctx.Err()
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		<-s.building
		return errClosed
	}
	s.n++
	n := s.n
	out := s.slot()
	bctx, cancel := context.WithCancel(ctx)
	s.cancel = cancel
	s.mu.Unlock()
	result := make(chan error, 1)
	go func() {
		err := s.build(bctx, n, out)
		s.mu.Lock()
		s.cancel = nil
		s.mu.Unlock()
		cancel()
		<-s.building
		result <- err
	}()
	select {
	case err := <-result:
		return err
	case <-ctx.Done():
		select {
		case err := <-result: // finished as ctx ended: its own outcome
			return err
		default:
			return ctx.Err()
		}
	}
}

// build runs Options.Build into out and publishes the outcome: the new
// site, or the error over the last good one.
func (s *Server) build(ctx context.Context, n int, out string) error {
	start := time.Now()
	err := s.opts.Build(ctx, out)
	if err != nil {
		s.mu.Lock()
		s.buildErr = err
		s.mu.Unlock()
		s.opts.Log.Error("rebuild failed; serving the last good site", "err", err)
		s.broadcast(message{"builderror", errorJSON(err)})
		if s.published != nil {
			s.published(n, err)
		}
		return err
	}
	s.mu.Lock()
	s.prev, s.cur, s.gen, s.buildErr = s.cur, out, n, nil
	s.mu.Unlock()
	s.opts.Log.Info("built", "build", n, "in", time.Since(start).Round(time.Millisecond))
	s.broadcast(message{"reload", strconv.Itoa(n)})
	if s.published != nil {
		s.published(n, nil)
	}
	return nil
}

// slot returns the build directory for the next build: of three, the one
// that is neither served nor the one served before, which a request
// started just before the last switch may still be reading. What the
// build before put there is left for Build to replace or update (s.mu is
// held).
func (s *Server) slot() string {
	for i := range 3 {
		// One level down: site.Build locks the directory out is in while
		// it swaps, and the server holds the lock of s.tmp.
		d := filepath.Join(s.tmp, "builds", "site-"+strconv.Itoa(i))
		if d != s.cur && d != s.prev {
			return d
		}
	}
	panic("unreachable")
}

func errorJSON(err error) string {
	b, _ := json.Marshal(struct {
		Message string `json:"message"`
	}{err.Error()})
	return string(b)
}

func (s *Server) broadcast(m message) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.subs {
		select {
		case c <- m:
		default: // a slow client misses a message; the next hello catches it up
		}
	}
}

// errClosed is Rebuild's error after Close.
var errClosed = errors.New("serve: server closed")

// csp is the Content-Security-Policy of every response: the site's own
// scripts (and the reload script, from the same origin), its styles (and
// the inline ones of the server's own error pages), its event stream;
// nothing from elsewhere, no framing.
const csp = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// ServeHTTP serves the site, the reload script and the event stream.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", csp)
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	h.Set("Referrer-Policy", "no-referrer")
	if !ownHost(r) {
		http.Error(w, "kubewalk serve answers requests for "+hostsFor(r)+" only: open the address it printed", http.StatusForbidden)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	name, ok := sitePath(r.URL)
	if !ok {
		http.Error(w, "bad path", http.StatusBadRequest)
		return
	}
	switch "/" + name {
	case Prefix + "events":
		// Same-origin EventSource requests carry no Origin; a page of
		// another origin's does, and gets nothing.
		if o := r.Header.Get("Origin"); o != "" && !strings.EqualFold(o, "http://"+r.Host) {
			http.Error(w, "event stream: origin "+o+" refused", http.StatusForbidden)
			return
		}
		s.events(w, r)
		return
	case Prefix + "reload.js":
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		io.WriteString(w, reloadJS)
		return
	}
	// A client that stops reading holds a response this long at most
	// (not supported by a ResponseRecorder: nothing to hold there).
	http.NewResponseController(w).SetWriteDeadline(time.Now().Add(writeWait))
	s.mu.Lock()
	dir, gen, berr := s.cur, s.gen, s.buildErr
	s.mu.Unlock()
	w.Header().Set("Cache-Control", "no-store")
	if dir == "" {
		s.errorPage(w, berr)
		return
	}
	s.file(w, r, dir, gen, name)
}

// ownHost reports whether r's Host names this server as a browser on
// this machine reaches it: 127.0.0.1, localhost, [::1] or the address the
// connection came to, with the port it came to. A request that did not
// come over a connection (a handler called directly) passes.
func ownHost(r *http.Request) bool {
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return true
	}
	lhost, lport, err := net.SplitHostPort(local.String())
	if err != nil {
		return false
	}
	host, port, err := net.SplitHostPort(r.Host)
	if err != nil {
		host, port = r.Host, "80" // a browser leaves out the default port
	}
	if port != lport {
		return false
	}
	switch strings.ToLower(host) {
	case "localhost", "127.0.0.1", "::1":
		return true
	}
	ip, lip := net.ParseIP(host), net.ParseIP(lhost)
	return ip != nil && lip != nil && ip.Equal(lip)
}

// hostsFor lists the Hosts ownHost accepts, for the refusal.
func hostsFor(r *http.Request) string {
	local, _ := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	port := "PORT"
	if local != nil {
		if _, p, err := net.SplitHostPort(local.String()); err == nil {
			port = p
		}
	}
	return "127.0.0.1:" + port + ", localhost:" + port + " or [::1]:" + port
}

// sitePath returns the site-relative path of a request, "" for the root,
// or ok false for a path that tries to leave the site: a ".." or "."
// segment, a backslash or NUL byte, after decoding the path once or
// several times (a %252e%252e is refused too, though it would only name a
// file called "%2e%2e": nothing a site holds looks like that).
func sitePath(u *url.URL) (string, bool) {
	p := u.Path
	if !strings.HasPrefix(p, "/") {
		return "", false
	}
	check := p
	for range 3 {
		if strings.ContainsAny(check, "\\\x00") {
			return "", false
		}
		for _, seg := range strings.Split(check, "/") {
			if seg == ".." || seg == "." {
				return "", false
			}
		}
		dec, err := url.PathUnescape(check)
		if err != nil || dec == check {
			break
		}
		check = dec
	}
	return strings.TrimPrefix(p, "/"), true
}

func (s *Server) file(w http.ResponseWriter, r *http.Request, dir string, gen int, name string) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		http.Error(w, "site not available", http.StatusServiceUnavailable)
		return
	}
	defer root.Close()
	fname := name
	if fname == "" {
		fname = "."
	}
	st, err := root.Stat(fname)
	if err != nil {
		s.notFound(w, gen)
		return
	}
	if st.IsDir() {
		if name != "" && !strings.HasSuffix(name, "/") {
			// Relative, so it works under any host and cannot redirect
			// off-site ("//evil" would be protocol-relative).
			http.Redirect(w, r, "./"+path.Base(name)+"/", http.StatusMovedPermanently)
			return
		}
		fname = path.Join(fname, "index.html")
	}
	f, err := root.Open(fname)
	if err != nil {
		s.notFound(w, gen)
		return
	}
	defer f.Close()
	st, err = f.Stat()
	if err != nil || st.IsDir() {
		s.notFound(w, gen)
		return
	}
	ctype := mime.TypeByExtension(path.Ext(fname))
	if ctype != "" {
		w.Header().Set("Content-Type", ctype)
	}
	if !strings.HasSuffix(fname, ".html") {
		http.ServeContent(w, r, fname, st.ModTime(), f)
		return
	}
	// Written from the file as it is read, the script inserted: a page is
	// not held in memory for a client that reads it slowly.
	size := st.Size()
	at, err := lastBodyTag(f, size)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	tag := scriptTag(gen)
	w.Header().Set("Content-Length", strconv.FormatInt(size+int64(len(tag)), 10))
	if r.Method == http.MethodHead {
		return
	}
	if _, err := io.Copy(w, io.NewSectionReader(f, 0, at)); err != nil {
		return
	}
	if _, err := io.WriteString(w, tag); err != nil {
		return
	}
	io.Copy(w, io.NewSectionReader(f, at, size-at))
}

// lastBodyTag returns the offset of the last </body> (in any case) of the
// size bytes of f, or size when there is none: where the reload script
// goes. It reads from the end, where a page's </body> is, a block at a
// time.
func lastBodyTag(f io.ReaderAt, size int64) (int64, error) {
	const block = 32 << 10
	needle := []byte("</body>")
	buf := make([]byte, block+len(needle)-1)
	for end := size; end > 0; {
		start := max(0, end-block)
		// The block and the start of the next, for a tag across them.
		want := min(int64(len(buf)), size-start)
		n, err := f.ReadAt(buf[:want], start)
		if err != nil && !(errors.Is(err, io.EOF) && int64(n) == want) {
			return 0, err
		}
		if i := bytes.LastIndex(bytes.ToLower(buf[:n]), needle); i >= 0 {
			return start + int64(i), nil
		}
		end = start
	}
	return size, nil
}

func scriptTag(gen int) string {
	return `<script src="` + Prefix + `reload.js" data-kubewalk-build="` + strconv.Itoa(gen) + `"></script>`
}

func (s *Server) notFound(w http.ResponseWriter, gen int) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusNotFound)
	fmt.Fprintf(w, "<!doctype html><meta charset=utf-8><title>Not found</title><p>Not found. <a href=\"/\">Home</a>%s\n", scriptTag(gen))
}

// errorPage is served for every page while no build has succeeded yet.
func (s *Server) errorPage(w http.ResponseWriter, err error) {
	msg := "building…"
	status := http.StatusServiceUnavailable
	if err != nil {
		msg = err.Error()
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	fmt.Fprintf(w, `<!doctype html><meta charset=utf-8><title>kubewalk: build failed</title>
<body style="font-family:system-ui,sans-serif;margin:2rem"><h1>The site did not build</h1>
<p>Fix the files below and save: the page reloads when the site builds.</p>
<pre style="white-space:pre-wrap;background:#fff0f0;padding:1rem;border-left:4px solid #c00">%s</pre>%s</body>
`, html.EscapeString(msg), scriptTag(0))
}

// events is the Server-Sent Events stream. On connect it sends "hello"
// with the current build number (a page from an older build reloads at
// once, so a rebuild between page load and connect is not missed) and the
// current build error, if any.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	c := make(chan message, 8)
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		http.Error(w, "server closing", http.StatusServiceUnavailable)
		return
	}
	s.subs[c] = struct{}{}
	gen, berr := s.gen, s.buildErr
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.subs, c)
		s.mu.Unlock()
	}()
	// The stream lasts, each write of it is bounded: a client that
	// stopped reading is dropped after writeWait.
	rc := http.NewResponseController(w)
	send := func(text string) bool {
		rc.SetWriteDeadline(time.Now().Add(writeWait))
		if _, err := io.WriteString(w, text); err != nil {
			return false
		}
		fl.Flush()
		return true
	}
	write := func(m message) bool { return send("event: " + m.event + "\ndata: " + m.data + "\n\n") }
	// retry: how soon the browser reconnects after the server restarts.
	fmt.Fprint(w, "retry: 500\n\n")
	if !write(message{"hello", strconv.Itoa(gen)}) {
		return
	}
	if berr != nil && !write(message{"builderror", errorJSON(berr)}) {
		return
	}
	ping := time.NewTicker(30 * time.Second)
	defer ping.Stop()
	for {
		select {
		case m := <-c:
			if !write(m) {
				return
			}
		case <-ping.C:
			if !send(": ping\n\n") {
				return
			}
		case <-r.Context().Done():
			return
		case <-s.done:
			return
		}
	}
}

// reloadJS is the script injected into every served page. It builds the
// error overlay with textContent only: the error text never becomes markup.
const reloadJS = `(function () {
  "use strict";
  var me = document.currentScript;
  var build = me ? me.getAttribute("data-kubewalk-build") : null;
  var es = new EventSource("/_kubewalk/events");
  function overlay(msg) {
    var o = document.getElementById("kubewalk-build-error");
    if (!o) {
      o = document.createElement("div");
      o.id = "kubewalk-build-error";
      o.setAttribute("role", "alert");
      o.style.cssText = "position:fixed;left:0;right:0;bottom:0;max-height:50%;overflow:auto;z-index:2147483647;" +
        "background:#fff0f0;color:#600;border-top:4px solid #c00;padding:0.75rem 1rem;font:13px/1.4 ui-monospace,monospace";
      var h = document.createElement("strong");
      h.textContent = "kubewalk: rebuild failed — still showing the last good build";
      var pre = document.createElement("pre");
      pre.style.cssText = "white-space:pre-wrap;margin:0.5rem 0 0";
      o.appendChild(h);
      o.appendChild(pre);
      document.body.appendChild(o);
    }
    o.lastChild.textContent = msg;
  }
  es.addEventListener("hello", function (e) {
    // A page from an older build (or the error page, build 0, once a
    // build succeeded) is stale: a rebuild happened before we connected.
    if (build !== null && e.data !== build) location.reload();
  });
  es.addEventListener("reload", function () { location.reload(); });
  es.addEventListener("builderror", function (e) {
    var msg = e.data;
    try { msg = JSON.parse(e.data).message; } catch (_) {}
    if (build === "0") return; // the error page shows it already
    overlay(msg);
  });
})();
`

// watchable reports whether a changed file name should trigger a rebuild:
// editor backups, swap files and hidden files do not.
func watchable(name string) bool {
	base := filepath.Base(name)
	return !(strings.HasPrefix(base, ".") || strings.HasSuffix(base, "~") ||
		strings.HasSuffix(base, ".swp") || strings.HasSuffix(base, ".swx") ||
		strings.HasPrefix(base, "#") || strings.HasSuffix(base, ".tmp"))
}

// walkDirs returns dir and its subdirectories, hidden ones left out.
func walkDirs(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != dir && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			out = append(out, p)
		}
		return nil
	})
	return out, err
}
