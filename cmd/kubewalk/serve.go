package main

import (
	"context"
	"fmt"
	"net"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/kubewalk/kubewalk/cmd/kubewalk/internal/pipeline"
	"github.com/kubewalk/kubewalk/cmd/kubewalk/internal/serve"
	"github.com/kubewalk/kubewalk/cmd/kubewalk/internal/sitebuild"
	"github.com/kubewalk/kubewalk/walkthrough"
	"github.com/spf13/cobra"
)

// serveFlags are serve's command line.
type serveFlags struct {
	sf        sourceFlags
	addr      string
	userDir   string
	noBuiltin bool
	lang      string
}

func newServeCmd(g *globals) *cobra.Command {
	var f serveFlags
	c := &cobra.Command{
		Use:   "serve",
		Short: "Build the site, serve it on loopback and rebuild it as you edit walkthroughs",
		Long: `Serve builds the site for a release like build does, serves it over HTTP, and
watches the --walkthroughs directory: when a file there changes, the
walkthroughs are re-resolved and the pages the edit can change re-rendered —
the release is not fetched or analysed again, and source pages whose
backlinks and links stay the same are kept, so a save shows up in the
browser in well under a second — and every open page reloads itself.

A rebuild that fails (a reference that does not resolve, a syntax error)
is printed on stderr as file:line: message and shown over the open pages;
the last good site keeps being served until the files are fixed. The
built-in walkthroughs are compiled in, so without --walkthroughs there is
nothing to watch.

The site is built into a private temporary directory, removed on exit;
the reload script is added to served pages only, never to files. Serve
listens on 127.0.0.1:8080 by default. Another --addr works (0.0.0.0:8080 to
let other machines in) with a warning: the preview server is meant for one
author, not for publishing — use build and any static file server for that.

A walkthrough that starts referencing a package the release was not
analysed for fails to resolve until serve is restarted (the analysis covers
the packages referenced when it started).`,
		Example: `  # Preview your own walkthroughs beside the built-in ones
  kubewalk serve --source goproxy --walkthroughs ./my-walkthroughs

  # Only your walkthroughs, in Korean, on another port
  kubewalk serve --walkthroughs ./docs --no-builtin --lang ko --addr 127.0.0.1:9000`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return f.run(cmd, g)
		},
	}
	fl := c.Flags()
	f.sf.register(fl)
	fl.StringVar(&f.addr, "addr", "127.0.0.1:8080", "address to listen on (loopback by default)")
	fl.StringVar(&f.userDir, "walkthroughs", "", "directory of walkthrough Markdown files to add to the built-in ones, watched for changes")
	fl.BoolVar(&f.noBuiltin, "no-builtin", false, "leave the built-in walkthroughs out")
	fl.StringVar(&f.lang, "lang", "en", "language of the walkthroughs and the site's interface: en or ko")
	completeFlags(c, map[string][]cobra.Completion{"addr": {"127.0.0.1:8080", "localhost:8080"}})
	return c
}

// run opens the release, builds the site once, then serves it until
// Ctrl-C.
func (f *serveFlags) run(cmd *cobra.Command, g *globals) error {
	if err := checkLang(cmd, f.lang); err != nil {
		return err
	}
	host, port, err := net.SplitHostPort(f.addr)
	if err == nil {
		_, err = net.LookupPort("tcp", port)
	}
	if err != nil {
		return &usageError{cmd: cmd.CommandPath(), err: fmt.Errorf("--addr %q: %v", f.addr, err)}
	}
	sets, err := watchedSets(f.userDir, f.noBuiltin)
	if err != nil {
		return &usageError{cmd: cmd.CommandPath(), err: err}
	}
	// The address is taken before the release is opened and built: a
	// port another program holds was found only after minutes of both.
	network := listenNetwork(host)
	ln, err := net.Listen(network, f.addr)
	if err != nil {
		return fmt.Errorf("--addr %s: %w: give another --addr, or stop what listens there", f.addr, err)
	}
	defer ln.Close()
	ctx := cmd.Context()
	rel, err := pipeline.Open(ctx, f.sf.options(g, f.sf.tag), sets, g.logf)
	if err != nil {
		return err
	}
	srv, err := f.newServer(g, rel, sets)
	if err != nil {
		return err
	}
	defer srv.Close()
	start := time.Now()
	if err := srv.Rebuild(ctx); err != nil {
		if f.userDir == "" || ctx.Err() != nil {
			return err // nothing the user can edit would fix it
		}
		fmt.Fprintln(g.stderr, termSafe(err.Error()))
	} else if !g.quiet {
		fmt.Fprintf(g.stderr, "built %s in %s\n", rel.Tree.Tag, time.Since(start).Round(100*time.Millisecond))
	}

	if !isLoopback(host) {
		g.log.Warn("serving beyond this machine: anyone who can reach " + ln.Addr().String() + " can read the site; the preview server is meant for one author")
	}
	if !g.quiet {
		msg := fmt.Sprintf("serving %s at %s", rel.Tree.Tag, serveURL(network, ln.Addr()))
		if f.userDir != "" {
			msg += " — watching " + f.userDir
		}
		fmt.Fprintln(g.stderr, msg+" (Ctrl-C to stop)")
	}
	return srv.Serve(ctx, ln)
}

// newServer makes the preview server of a release opened once: each
// rebuild resolves the walkthroughs again over the same analysis.
func (f *serveFlags) newServer(g *globals, rel *pipeline.Release, sets []pipeline.WalkSet) (*serve.Server, error) {
	roots, err := pipeline.Roots(sets)
	if err != nil {
		return nil, err
	}
	var watch []string
	if f.userDir != "" {
		watch = []string{f.userDir}
	}
	build := sitebuild.Rebuild(rel, sets, f.lang, g.logf)
	return serve.New(serve.Options{
		Build: func(ctx context.Context, out string) error {
			_, err := build(ctx, out)
			if err != nil {
				if now, rerr := pipeline.Roots(sets); rerr == nil && !subset(now, roots) {
					err = fmt.Errorf("%w\n(the walkthroughs now reference packages that were not analysed when serve started: restart kubewalk serve)", err)
				}
			}
			return err
		},
		Watch: watch,
		Log:   g.log,
		// Beside the cache, not in a shared /tmp; what a killed
		// serve left there is removed by the next.
		Dir: filepath.Join(g.cacheDir, "serve"),
	})
}

// watchedSets are the walkthrough sets serve builds from: pipeline.Sets,
// with the watched directory read through walkthrough.DirFS. Serve hashes
// every file there at each rebuild to see what changed, and through
// os.DirFS a named pipe in the directory made that read wait for ever
// (and Ctrl-C with it); DirFS refuses it at once.
func watchedSets(userDir string, noBuiltin bool) ([]pipeline.WalkSet, error) {
	sets, err := pipeline.Sets(userDir, noBuiltin)
	if err != nil || userDir == "" {
		return sets, err
	}
	fsys, err := walkthrough.DirFS(userDir)
	if err != nil {
		return nil, fmt.Errorf("--walkthroughs: %w", err)
	}
	for i := range sets {
		if sets[i].Name == userDir {
			sets[i].FS = fsys
		}
	}
	return sets, nil
}

// isLoopback reports whether a listen host is loopback only. An empty
// host (":8080") listens on every interface.
func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// listenNetwork is the network to listen on for a listen host: an IPv4
// address listens on IPv4 only (0.0.0.0 listened on IPv6 too), an IPv6
// address on IPv6 only; a name or no host, as the system resolves it.
func listenNetwork(host string) string {
	ip := net.ParseIP(host)
	switch {
	case ip == nil:
		return "tcp"
	case ip.To4() != nil:
		return "tcp4"
	}
	return "tcp6"
}

// serveURL is the address a browser on this machine opens for a server
// listening at addr on network: the loopback address for an unspecified
// one (the server answers a Host of 127.0.0.1 or [::1], never of 0.0.0.0
// or [::], which it printed).
func serveURL(network string, addr net.Addr) string {
	ta, ok := addr.(*net.TCPAddr)
	if !ok {
		return "http://" + addr.String() + "/"
	}
	ip := ta.IP
	if ip.IsUnspecified() {
		ip = net.IPv4(127, 0, 0, 1)
		if network == "tcp6" {
			ip = net.IPv6loopback
		}
	}
	return "http://" + net.JoinHostPort(ip.String(), strconv.Itoa(ta.Port)) + "/"
}

// subset reports whether every element of a is in b (both sorted or not).
func subset(a, b []string) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}
