//go:build e2e

package e2e

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/linkcheck"
	"github.com/kubewalk/kubewalk/site"
)

// controllerTags are the releases the controller tests run at: the
// default, and the last release whose controller list names the three
// cloud-provider controllers.
var controllerTags = []string{"v1.37.2", "v1.31.0"}

// treeDir fetches a release (or takes it from the cache) and returns the
// root of its tree.
func treeDir(t *testing.T, tag string) string {
	t.Helper()
	out, _ := kubewalk(t, "fetch", "--source", "goproxy", "--tag", tag, "-o", "dir")
	return strings.TrimSpace(out)
}

// registerRE matches an entry of NewControllerDescriptors as the source
// writes it, one per line: register(newDeploymentControllerDescriptor()).
var registerRE = regexp.MustCompile(`(?m)^\s*register\((new\w+Descriptor)\(`)

// descriptorFuncs returns the descriptor functions NewControllerDescriptors
// registers, read as text from the file declaring it.
func descriptorFuncs(t *testing.T, dir string) []string {
	t.Helper()
	app := filepath.Join(dir, "cmd/kube-controller-manager/app")
	files, _ := filepath.Glob(filepath.Join(app, "*.go"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		i := strings.Index(s, "func NewControllerDescriptors()")
		if i < 0 {
			continue
		}
		body := s[i:]
		body = body[:strings.Index(body, "\n}\n")]
		var out []string
		for _, m := range registerRE.FindAllStringSubmatch(body, -1) {
			out = append(out, m[1])
		}
		sort.Strings(out)
		return out
	}
	t.Fatalf("no NewControllerDescriptors in %s", app)
	return nil
}

// TestListControllersMatchesSource: `list controllers` lists exactly the
// entries the source registers, each with a start function and the
// constructor of its controller package; five entries are checked by
// hand against the source.
func TestListControllersMatchesSource(t *testing.T) {
	for _, tag := range controllerTags {
		t.Run(tag, func(t *testing.T) {
			var cs []fact.Controller
			kubewalkJSON(t, &cs, "list", "controllers", "--source", "goproxy", "--tag", tag, "-o", "json")
			want := descriptorFuncs(t, treeDir(t, tag))
			var got []string
			byName := map[string]fact.Controller{}
			for _, c := range cs {
				byName[c.Name] = c
				if c.Descriptor != nil {
					got = append(got, fact.ShortSymbol(c.Descriptor.Symbol)[len("app."):])
				}
				if c.Start.Symbol == "" || len(c.Constructors) == 0 {
					t.Errorf("%s: start %q, constructors %v: want both", c.Name, c.Start.Symbol, c.Constructors)
				}
			}
			sort.Strings(got)
			if !slices.Equal(got, want) {
				t.Errorf("descriptors listed:\n%v\nregistered in the source:\n%v", got, want)
			}
			t.Logf("%s: %d controllers", tag, len(cs))
			checkControllersByHand(t, tag, byName)
		})
	}
}

// checkControllersByHand holds five entries as read in
// cmd/kube-controller-manager/app at each release.
func checkControllersByHand(t *testing.T, tag string, by map[string]fact.Controller) {
	t.Helper()
	// apps.go: newDeploymentControllerDescriptor, alias "deployment",
	// deployment.NewDeploymentController in its start function.
	d := by["deployment-controller"]
	if !slices.Equal(d.Aliases, []string{"deployment"}) || len(d.Constructors) != 1 ||
		d.Constructors[0].Symbol != "k8s.io/kubernetes/pkg/controller/deployment.NewDeploymentController" || d.DisabledByDefault {
		t.Errorf("deployment-controller: %+v", d)
	}
	// core.go: requiredFeatureGates SeparateTaintEvictionController.
	if g := by["taint-eviction-controller"].FeatureGates; !slices.Equal(g, []string{"SeparateTaintEvictionController"}) {
		t.Errorf("taint-eviction-controller gates %v", g)
	}
	// bootstrap.go: isDisabledByDefault: true.
	if !by["bootstrap-signer-controller"].DisabledByDefault || !by["token-cleaner-controller"].DisabledByDefault {
		t.Errorf("bootstrap-signer and token-cleaner should be disabled by default")
	}
	// service_accounts.go: requiresSpecialHandling, a func literal as constructor.
	if sa := by["serviceaccount-token-controller"]; !sa.Special || !strings.Contains(sa.Start.Symbol, "$") {
		t.Errorf("serviceaccount-token-controller: %+v", sa)
	}
	// core.go: the node IPAM controller starts nothing unless
	// --allocate-node-cidrs.
	if w := by["node-ipam-controller"].DisabledWhen; len(w) == 0 || !strings.Contains(w[0], "AllocateNodeCIDRs") {
		t.Errorf("node-ipam-controller disabled when %v", w)
	}
	cloud := []string{"cloud-node-lifecycle-controller", "node-route-controller", "service-lb-controller"}
	for _, n := range cloud {
		if c, ok := by[n]; ok != (tag == "v1.31.0") || ok && !c.Cloud {
			t.Errorf("%s at %s: listed %v, cloud %v", n, tag, ok, c.Cloud)
		}
	}
}

// pointOf is the extension point a method makes, for the methods that
// make one alone or with a partner every plugin declares beside it.
var pointOf = map[string]string{
	"PreEnqueue": "PreEnqueue", "Less": "QueueSort", "EventsToRegister": "EnqueueExtensions",
	"PreFilter": "PreFilter", "Filter": "Filter", "PostFilter": "PostFilter", "PreScore": "PreScore",
	"Score": "Score", "NormalizeScore": "NormalizeScore", "Reserve": "Reserve", "Permit": "Permit",
	"PreBind": "PreBind", "Bind": "Bind", "PostBind": "PostBind",
}

// TestPluginsMatchMethods: each scheduler plugin's extension points match
// the methods its type declares in its package's source (parsed here
// with go/parser): a method of pointOf on the type gives its point, and
// every method a listed point names is declared where the facts say.
func TestPluginsMatchMethods(t *testing.T) {
	for _, tag := range controllerTags {
		t.Run(tag, func(t *testing.T) {
			var ps []fact.SchedulerPlugin
			kubewalkJSON(t, &ps, "list", "plugins", "--source", "goproxy", "--tag", tag, "-o", "json")
			if len(ps) < 15 {
				t.Fatalf("%d plugins listed", len(ps))
			}
			dir := treeDir(t, tag)
			for _, p := range ps {
				checkPluginMethods(t, dir, p)
			}
			t.Logf("%s: %d plugins", tag, len(ps))
		})
	}
}

func checkPluginMethods(t *testing.T, dir string, p fact.SchedulerPlugin) {
	t.Helper()
	typ := p.Type[strings.LastIndexByte(p.Type, '.')+1:]
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, filepath.Join(dir, p.Package), func(fi os.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	declared := map[string]int{} // method → line
	for _, pkg := range pkgs {
		for _, f := range pkg.Files {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Recv == nil {
					continue
				}
				rt := fd.Recv.List[0].Type
				if st, ok := rt.(*ast.StarExpr); ok {
					rt = st.X
				}
				if id, ok := rt.(*ast.Ident); ok && id.Name == typ {
					declared[fd.Name.Name] = fset.Position(fd.Name.Pos()).Line
				}
			}
		}
	}
	listed := map[string]bool{}
	for _, e := range p.ExtensionPoints {
		listed[e.Name] = true
		for _, m := range e.Methods {
			name := m.Symbol[strings.LastIndexByte(m.Symbol, '.')+1:]
			if line, ok := declared[name]; ok && (line < m.Decl.StartLine || line > m.Decl.EndLine) {
				t.Errorf("%s: %s.%s declared at line %d, facts say %d-%d", p.Name, typ, name, line, m.Decl.StartLine, m.Decl.EndLine)
			}
		}
	}
	for m := range declared {
		if pt, ok := pointOf[m]; ok && !listed[pt] {
			t.Errorf("%s: %s declares %s but %s is not listed (listed: %v)", p.Name, typ, m, pt, listed)
		}
	}
}

// TestControllerPages: the site of each release has a page for every
// controller of the list, one for both languages, each naming its
// informers, sync functions and writes or saying why not in each, and the
// pages pass the link checker.
func TestControllerPages(t *testing.T) {
	for _, tag := range controllerTags {
		t.Run(tag, func(t *testing.T) {
			var cs []fact.Controller
			kubewalkJSON(t, &cs, "list", "controllers", "--source", "goproxy", "--tag", tag, "-o", "json")
			out := t.TempDir()
			kubewalk(t, "build", "--source", "goproxy", "--tag", tag, "--out", out)
			var size int64
			for _, c := range cs {
				// The Korean rendering is checked to be there; its
				// sentences are the English ones' translations (site
				// tests compare them).
				b, err := os.ReadFile(filepath.Join(out, "controllers", c.Name+".html"))
				if err != nil {
					t.Errorf("%s: %v", c.Name, err)
					continue
				}
				size += int64(len(b))
				page := string(b)
				if !strings.Contains(page, `data-langs="en ko"`) || !strings.Contains(page, "인포머") {
					t.Errorf("%s: the page lacks its Korean rendering", c.Name)
				}
				for _, want := range [][2]string{
					{`id="watches"`, "informer handler registration"},
					{`id="syncs"`, "sync function"},
				} {
					if !strings.Contains(page, want[0]) || !strings.Contains(page, want[1]) {
						t.Errorf("%s: no %s section saying %q", c.Name, want[0], want[1])
					}
				}
				if !strings.Contains(page, `class="verb"`) && !strings.Contains(page, "No API write") && !strings.Contains(page, "No sync function") {
					t.Errorf("%s: names no write and does not say why", c.Name)
				}
			}
			if _, err := os.Stat(filepath.Join(out, "controllers", "scheduler-plugins.html")); err != nil {
				t.Error(err)
			}
			for _, err := range linkcheck.Check(out, site.ScriptLinks) {
				t.Error(err)
			}
			t.Logf("%s: %d controller pages, %d KB", tag, len(cs), size/1024)
		})
	}
}
