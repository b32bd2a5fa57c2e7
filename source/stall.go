package source

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing/transport/client"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
)

// A git remote or module proxy that stops sending without closing the
// connection (a dead middlebox, a server stuck mid-response) used to hold
// a fetch until go-git's or the go command's own limits, which for a
// response body are none. Every HTTP exchange with a remote or proxy is
// now watched: when no byte arrives for Options.StallTimeout — neither the
// response's headers nor the next bytes of its body — the exchange is
// ended and the fetch fails with ErrStalled, naming the server and the
// limit.
//
// go-git's HTTP transport is kubewalk's own (installed once, for http and
// https): each request carries the fetch's limit in its context. The go
// command runs in another process, so it is given a GOPROXY on loopback
// that forwards each http(s) proxy of its list to the real one through
// the same watch; file:// proxies, "direct" and "off" are passed as they
// are (a VCS fetch of "direct" is not watched).

// DefaultStallTimeout is Options.StallTimeout when it is zero: a long
// pause for a healthy server (the proxy's zip of k8s.io/kubernetes starts
// at once), short enough to give up on a stuck one in reasonable time.
const DefaultStallTimeout = time.Minute

// ErrStalled is returned (wrapped, with ErrUnreachable) when a git remote
// or module proxy sent nothing for Options.StallTimeout.
var ErrStalled = errors.New("stopped sending")

// stall is the watch of one fetch: its limit, and the first exchange that
// went beyond it.
type stall struct {
	limit time.Duration
	mu    sync.Mutex
	what  string // the URL that stalled, "" while none did
}

func (s *stall) stalled(u string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.what == "" {
		s.what = u
	}
}

// err returns the fetch's error when an exchange stalled, else nil.
func (s *stall) err(where, todo string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.what == "" {
		return nil
	}
	return fmt.Errorf("%s: %w: %w for %s (%s): %s, or raise --stall-timeout", where, ErrUnreachable, ErrStalled, s.limit, redact(s.what), todo)
}

// redact drops the user information of a URL for messages.
func redact(u string) string {
	if p, err := url.Parse(u); err == nil && p.User != nil {
		p.User = nil
		return p.String()
	}
	return u
}

type stallKey struct{}

func withStall(ctx context.Context, s *stall) context.Context {
	return context.WithValue(ctx, stallKey{}, s)
}

// stallTransport ends an exchange whose request context carries a stall
// when no byte of its response arrives for the stall's limit.
type stallTransport struct{ base http.RoundTripper }

func (t stallTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	s, _ := req.Context().Value(stallKey{}).(*stall)
	if s == nil || s.limit <= 0 {
		return t.base.RoundTrip(req)
	}
	ctx, cancel := context.WithCancelCause(req.Context())
	u := req.URL.String()
	timer := time.AfterFunc(s.limit, func() {
		s.stalled(u)
		cancel(ErrStalled)
	})
	resp, err := t.base.RoundTrip(req.WithContext(ctx))
	if err != nil {
		timer.Stop()
		cancel(nil)
		return nil, err
	}
	timer.Reset(s.limit)
	resp.Body = &stallBody{ReadCloser: resp.Body, timer: timer, limit: s.limit, cancel: cancel}
	return resp, nil
}

// stallBody restarts its exchange's timer at each byte that arrives.
type stallBody struct {
	io.ReadCloser
	timer  *time.Timer
	limit  time.Duration
	cancel context.CancelCauseFunc
}

func (b *stallBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 {
		b.timer.Reset(b.limit)
	}
	return n, err
}

func (b *stallBody) Close() error {
	b.timer.Stop()
	b.cancel(nil)
	return b.ReadCloser.Close()
}

var installGitHTTP sync.Once

// gitStall returns ctx watched by a stall of limit for go-git's HTTP
// exchanges, installing kubewalk's transport for them the first time.
func gitStall(ctx context.Context, limit time.Duration) (context.Context, *stall) {
	installGitHTTP.Do(func() {
		c := githttp.NewClient(&http.Client{Transport: stallTransport{http.DefaultTransport}})
		client.InstallProtocol("http", c)
		client.InstallProtocol("https", c)
	})
	s := &stall{limit: limit}
	return withStall(ctx, s), s
}

// proxyGuard forwards the http(s) proxies of a GOPROXY list through a
// stall watch, from loopback.
type proxyGuard struct {
	srv   *http.Server
	stall *stall
	list  string // the GOPROXY to give the go command
}

// guardProxies starts a proxyGuard for the go command's GOPROXY list (as
// `go env GOPROXY` reports it with opts.Env), or returns nil when the list
// holds no http(s) proxy.
func guardProxies(ctx context.Context, opts Options, dir string) (*proxyGuard, error) {
	out, stderr, err := runGo(ctx, opts, dir, "env", "GOPROXY")
	if err != nil {
		return nil, fmt.Errorf("go env GOPROXY: %v: %s", err, firstLine(stderr))
	}
	list := strings.TrimSpace(string(out))
	if netrc() {
		// The go command sends a proxy the credentials .netrc holds for
		// its host; in front of it, the guard's host would get none.
		return nil, nil
	}
	var upstreams []*url.URL
	var b strings.Builder
	for rest := list; rest != ""; {
		i := strings.IndexAny(rest, ",|")
		entry, sep := rest, ""
		if i >= 0 {
			entry, sep, rest = rest[:i], rest[i:i+1], rest[i+1:]
		} else {
			rest = ""
		}
		if u, err := url.Parse(entry); err == nil && (u.Scheme == "http" || u.Scheme == "https") {
			upstreams = append(upstreams, u)
			entry = "\x00" + strconv.Itoa(len(upstreams)-1) // the forwarder's URL, once it listens
		}
		b.WriteString(entry + sep)
	}
	if len(upstreams) == 0 {
		return nil, nil
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	g := &proxyGuard{stall: &stall{limit: opts.StallTimeout}}
	base := "http://" + ln.Addr().String() + "/"
	g.list = b.String()
	for i := range upstreams {
		g.list = strings.Replace(g.list, "\x00"+strconv.Itoa(i), base+strconv.Itoa(i), 1)
	}
	rp := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			n, rest, _ := strings.Cut(strings.TrimPrefix(r.In.URL.Path, "/"), "/")
			i, _ := strconv.Atoi(n)
			up := upstreams[min(max(i, 0), len(upstreams)-1)]
			r.SetURL(up)
			r.Out.URL.Path = strings.TrimSuffix(up.Path, "/") + "/" + rest
			r.Out.URL.RawPath = ""
			r.Out.Host = up.Host
			if u := up.User; u != nil {
				// As the go command would send them for a GOPROXY
				// of user:password@host.
				pw, _ := u.Password()
				r.Out.SetBasicAuth(u.Username(), pw)
			}
		},
		Transport: stallTransport{http.DefaultTransport},
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			http.Error(w, err.Error(), http.StatusBadGateway)
		},
	}
	g.srv = &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			rp.ServeHTTP(w, r.WithContext(withStall(r.Context(), g.stall)))
		}),
		ReadHeaderTimeout: 10 * time.Second,
	}
	go g.srv.Serve(ln)
	return g, nil
}

// netrc reports whether the go command may read credentials from a
// .netrc file.
func netrc() bool {
	if os.Getenv("NETRC") != "" {
		return true
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return false
	}
	for _, name := range []string{".netrc", "_netrc"} {
		if _, err := os.Stat(filepath.Join(home, name)); err == nil {
			return true
		}
	}
	return false
}

// env is what the go command's environment needs for the guard.
func (g *proxyGuard) env() []string {
	if g == nil {
		return nil
	}
	return []string{"GOPROXY=" + g.list}
}

func (g *proxyGuard) err(todo string) error {
	if g == nil {
		return nil
	}
	return g.stall.err("module proxy", todo)
}

func (g *proxyGuard) close() {
	if g != nil {
		g.srv.Close()
	}
}
