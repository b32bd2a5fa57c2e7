package site

import (
	"html/template"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/record"
	"github.com/kubewalk/kubewalk/walkthrough"
)

// fixtureCoverage is coverage of the fixture's sync.go as `record
// --coverage` writes it: rolloutRolling's blocks (its entry, the error
// branch, the rest) and getNewReplicaSet's, which scenario deployment
// runs but for the error branch and scenario rollout runs more often.
// deployment_controller.go is counted and nothing of it ran.
func fixtureCoverage(scenario string) *record.Coverage {
	const sync, dc = "pkg/controller/deployment/sync.go", "pkg/controller/deployment/deployment_controller.go"
	c := &record.Coverage{
		Mode: "atomic",
		Phases: []record.Phase{
			{Name: "startup", Start: -3000, End: 0},
			{Name: "apply/kubectl", Start: 0, End: 40},
			{Name: "apply/replicaset", Start: 40, End: 80},
		},
		Programs: []record.CoverProgram{{Name: "kube-controller-manager", Files: []int{0, 1}}},
		Files: []record.CoverFile{
			{Path: dc, Blocks: []int{}},
			// Per block: its start line less the previous one's, its
			// end line less its start line, its statements.
			{Path: sync, Blocks: []int{
				6, 2, 2, // 0: rolloutRolling's entry to the if, lines 6-8
				2, 2, 1, // 1: the error branch, 8-10
				2, 7, 6, // 2: the rest, 10-17
				10, 3, 3, // 3: getNewReplicaSet, 20-23
			}},
		},
	}
	n := int64(1)
	if scenario == "rollout" {
		n = 4
	}
	// Blocks are numbered over the files: deployment_controller.go has
	// none, so sync.go's are 0..3; each pair names its block as the
	// difference from the previous pair's (0, 2, 3 as 0, 2, 1).
	c.Hits = []record.Hits{
		{Phase: "apply/replicaset", Program: "kube-controller-manager", Counts: []int64{0, n, 2, n, 1, n}},
		{Phase: "apply/kubectl", Program: "kube-controller-manager", Counts: []int64{3, 2}},
	}
	return c
}

func coverageRecordings() []*record.Recording {
	dep := fixtureRecording()
	dep.Coverage = fixtureCoverage("deployment")
	ro := fixtureRecording()
	ro.Scenario = "rollout"
	ro.Coverage = fixtureCoverage("rollout")
	return []*record.Recording{ro, dep}
}

// srcLine returns line n's opening tag on a source page.
func srcLine(t *testing.T, page string, n int) string {
	t.Helper()
	m := regexp.MustCompile(`<u id=L` + strconv.Itoa(n) + `(?: [^>]*)?>`).FindString(page)
	if m == "" {
		t.Fatalf("no line %d", n)
	}
	return m
}

func TestSourceCoverageMarks(t *testing.T) {
	out, _ := buildFixture(t, func(in *Input) { in.Recordings = coverageRecordings() })
	files := readTree(t, out)
	page := files[SourcePage("pkg/controller/deployment/sync.go")]
	if page == "" {
		t.Fatal("no source page for sync.go")
	}
	// The lines carry no counts of their own: site.js marks them from
	// data-cov (TestBrowserCoverage).
	for _, n := range []int{6, 21} {
		if tag := srcLine(t, page, n); tag != "<u id=L"+strconv.Itoa(n)+">" {
			t.Errorf("line %d opens with %s, want no attribute but its id", n, tag)
		}
	}
	// Every scenario is in data-cov, the default first, as runs from line
	// 1: five lines not counted, rolloutRolling's three lines, the error
	// branch (did not run), the rest, two lines between, then
	// getNewReplicaSet's four lines; then rollout's differences from it:
	// the same five, its own counts of the three, the same error branch,
	// its own counts of the rest and of getNewReplicaSet.
	if want := `data-cov="deployment=5 3.1 1.0 8.1 2 4.3|rollout~5 3.4 1 8.4 2 4.6"`; !strings.Contains(page, want) {
		t.Errorf("sync.go's page lacks %s", want)
	}
	// The markup's scenario choice holds the walkthroughs' scenario;
	// site.js adds the others from data-cov (TestBrowserCoverage).
	if !strings.Contains(page, `<select><option>deployment</option></select>`) {
		t.Error("the scenario choice does not hold deployment alone")
	}
	// The rollout's page counts its start-up and leaves its items to the
	// deployment run's page, which lists them.
	rollout, deployment := files[RecordedPage("rollout")], files[RecordedPage("deployment")]
	start := strings.Index(rollout, `<details class="phase" id="phase-1">`)
	end := strings.Index(rollout, `<details class="phase" id="phase-2"`)
	if start < 0 || end < start {
		t.Fatal("the rollout's page has no start-up phase before its others")
	}
	if ph := rollout[start:end]; strings.Contains(ph, `<li class="obs-`) || !strings.Contains(ph, `href="recorded.html#phase-1"`) {
		t.Errorf("the rollout's start-up phase lists items or does not link the deployment run's:\n%s", ph)
	}
	if strings.Contains(rollout, `id="startup-sequence"`) {
		t.Error("the rollout's page draws the start-up, which the deployment run's page draws")
	}
	if d := deployment[strings.Index(deployment, `id="phase-1"`):]; !strings.Contains(d[:strings.Index(d, `id="phase-2"`)], `<li class="obs-`) {
		t.Error("the deployment run's page does not list its start-up's items")
	}
	// The walkthrough links the runs in which its code ran.
	if wt := files[WalkthroughPage("deployment")]; !strings.Contains(wt, `Recorded runs in which its code ran: <a href="../recorded.html">deployment</a>, <a href="../recorded-rollout.html">rollout</a>`) {
		t.Error("the deployment walkthrough does not link both recorded runs")
	}
	// deployment_controller.go was counted but none of it ran: its page
	// says so, without marking lines it cannot place.
	dcPage := files[SourcePage("pkg/controller/deployment/deployment_controller.go")]
	if strings.Contains(dcPage, "data-n=") || strings.Contains(dcPage, "data-cov=") {
		t.Error("deployment_controller.go's lines are marked though no block of it is listed")
	}
	if !strings.Contains(dcPage, "No line of this file ran in the recorded runs (deployment, rollout)") {
		t.Error("deployment_controller.go's page does not say none of it ran")
	}
}

func TestSourceCoverageNone(t *testing.T) {
	out, _ := buildFixture(t, func(in *Input) { in.Recordings = []*record.Recording{fixtureRecording()} })
	for p, page := range readTree(t, out) {
		if !strings.HasSuffix(p, ".html") {
			continue
		}
		if strings.Contains(page, "data-n=") || strings.Contains(page, "data-cov=") || strings.Contains(page, `class="covpick`) {
			t.Errorf("%s has coverage marks without coverage", p)
		}
	}
}

// excerptBadgeOf returns the coverage badge of the excerpt of file at
// line on a walkthrough page.
func excerptBadgeOf(t *testing.T, page, fileLine string) string {
	t.Helper()
	_, after, ok := strings.Cut(page, `>`+fileLine+`</a>`)
	if !ok {
		t.Fatalf("no excerpt of %s", fileLine)
	}
	head, _, _ := strings.Cut(after, `</div>`)
	m := regexp.MustCompile(`<span class="covbadge (\w+)">([^<]*)</span>`).FindStringSubmatch(head)
	if m == nil {
		return ""
	}
	return m[1] + ": " + m[2]
}

func TestStepCoverage(t *testing.T) {
	recs := coverageRecordings()
	out, _ := buildFixture(t, func(in *Input) { in.Recordings = recs })
	page := readTree(t, out)["walkthroughs/deployment.html"]
	// rolloutRolling's excerpt marks its call of getNewReplicaSet (line
	// 7), in its entry block: ran once in deployment.
	if got, want := excerptBadgeOf(t, page, "pkg/controller/deployment/sync.go:7"), "ran: ran 1× in the recorded run"; got != want {
		t.Errorf("sync.go:7's badge is %q, want %q", got, want)
	}
	// NewDeploymentController's file was counted and none of it ran.
	if got, want := excerptBadgeOf(t, page, "pkg/controller/deployment/deployment_controller.go:18"), "not: did not run in this scenario"; got != want {
		t.Errorf("deployment_controller.go:18's badge is %q, want %q", got, want)
	}
	// The step citing NewDeploymentController in its text lists it with
	// its badge.
	if !strings.Contains(page, `<code>deployment.NewDeploymentController</code></a> <span class="covbadge not">did not run in this scenario</span>`) {
		t.Error("the cited NewDeploymentController has no badge")
	}
	// The step whose ReplicaSet create fell in apply/replicaset lists
	// rolloutRolling as run there once, by the controller manager.
	if !regexp.MustCompile(`Code that ran in this phase <span class="meta">\(apply/replicaset\)</span>[\s\S]*?<b>kube-controller-manager</b>[\s\S]*?<code>deployment.DeploymentController.rolloutRolling</code></a> <span class="meta">×1</span>`).MatchString(page) {
		t.Error("no step lists rolloutRolling as run once in apply/replicaset")
	}

	// When only the rollout ran rolloutRolling, the badge says where it runs.
	dep := recs[1].Coverage
	dep.Hits = dep.Hits[1:] // getNewReplicaSet's, while kubectl ran
	out, _ = buildFixture(t, func(in *Input) { in.Recordings = recs })
	page = readTree(t, out)["walkthroughs/deployment.html"]
	if got, want := excerptBadgeOf(t, page, "pkg/controller/deployment/sync.go:7"), "not: did not run in this scenario (runs in: rollout)"; got != want {
		t.Errorf("sync.go:7's badge is %q, want %q", got, want)
	}
	if strings.Contains(page, "Code that ran in this phase") {
		t.Error("a step lists code that ran in its phase though none of the cited functions ran there")
	}
}

// phaseTitles returns the run page's phases: title and whether open.
func phaseTitles(page string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`<details class="phase" id="phase-\d+"( open)?>\s*<summary><b>([^<]*)</b>`).FindAllStringSubmatch(page, -1) {
		out = append(out, m[2]+map[bool]string{true: " (open)", false: ""}[m[1] != ""])
	}
	return out
}

func TestRecordedPhases(t *testing.T) {
	rec := fixtureRecording()
	// A second ReplicaSet create by the same code, and a long user agent.
	again := rec.Audit[2]
	again.At, again.Name = 75, "nginx-deployment-second"
	rec.Audit = append(rec.Audit, again)
	rec.Audit[2].UserAgent += " (linux/amd64) kubernetes/abcdef0"
	rec.Audit[0].RequestURI = "/apis/apps/v1/deployments?allowWatchBookmarks=true&timeoutSeconds=378&watch=true"
	// A write of the API server's own while it starts.
	rec.Audit = append(rec.Audit, record.AuditEntry{At: -800, Stage: "ResponseComplete", Verb: "create", Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "clusterroles", Name: "admin", User: "system:apiserver", UserAgent: "kube-apiserver/" + fixtureTag, RequestURI: "/apis/rbac.authorization.k8s.io/v1/clusterroles", Code: 201})

	// Without coverage the phases are derived: the start-up, then one per
	// component of the scenario in the order it first acted.
	// The reflector's watch, which sets allowWatchBookmarks on a plain
	// watch, as a symbol of the fixture's client-go file.
	reflectorWatch := func(in *Input) {
		loc := fact.Location{Path: "staging/src/k8s.io/client-go/tools/cache/shared_informer.go", StartLine: 1, EndLine: 2}
		addSymbols(in, fact.Symbol{Name: "k8s.io/client-go/tools/cache.Reflector.watch", Kind: "method", Decl: loc, Body: loc})
	}
	out, _ := buildFixture(t, func(in *Input) { reflectorWatch(in); in.Recordings = []*record.Recording{rec} })
	page := readTree(t, out)[RecordedPage("deployment")]
	// (The fixture has no source page of that file: the link is GitHub's.)
	if want := `Set by <a class="sym" href="https://github.com/kubernetes/kubernetes/blob/` + fixtureTag + `/staging/src/k8s.io/client-go/tools/cache/shared_informer.go#L1-L2"><code>cache.Reflector.watch</code></a>`; !strings.Contains(page, want) {
		t.Errorf("allowWatchBookmarks is not linked to the reflector's watch: no %s", want)
	}
	want := []string{"The control plane starts", "kubectl acts (open)", "deployment controller acts (open)", "&lt;script&gt;alert(1)&lt;/script&gt; acts (open)"}
	if got := phaseTitles(page); !slices.Equal(got, want) {
		t.Errorf("phases without coverage:\n got %q\nwant %q", got, want)
	}
	// The second create is folded into the first.
	if !strings.Contains(page, `<span class="fold">×2, like the first; the last at &#43;75 ms</span>`) {
		t.Error("the ReplicaSet's second create is not folded into the first")
	}
	// The long user agent is cut after its program, whole on demand.
	if !strings.Contains(page, `<summary>user agent: <code>kube-controller-manager/`+fixtureTag+` …</code></summary>`) {
		t.Error("the long user agent is not shortened")
	}
	// The watch's parameters are explained once; the start-up is drawn.
	for _, want := range []string{"<dt><code>allowWatchBookmarks</code></dt>", "<dt><code>timeoutSeconds</code></dt>", `id="startup-sequence"`, "What is simulated"} {
		if !strings.Contains(page, want) {
			t.Errorf("the run page lacks %s", want)
		}
	}
	if strings.Contains(page, "<dt><code>sendInitialEvents</code></dt>") {
		t.Error("the run page explains a parameter no watch used")
	}

	// With coverage, the recording's phases, worded.
	rec.Coverage = fixtureCoverage("deployment")
	out, _ = buildFixture(t, func(in *Input) { in.Recordings = []*record.Recording{rec} })
	page = readTree(t, out)[RecordedPage("deployment")]
	want = []string{"The control plane starts", "apply: kubectl&#39;s requests (open)", "apply: until the ReplicaSet exists (open)"}
	if got := phaseTitles(page); !slices.Equal(got, want) {
		t.Errorf("phases with coverage:\n got %q\nwant %q", got, want)
	}
}

func TestControllerCoverage(t *testing.T) {
	out, _ := buildFixture(t, func(in *Input) { withControllers(in); in.Recordings = coverageRecordings() })
	files := readTree(t, out)
	var page string
	for p, s := range files {
		if strings.HasPrefix(p, "controllers/") && strings.Contains(s, `id="ran"`) {
			page = s
		}
	}
	if page == "" {
		t.Fatal("no controller page has a section on the code that ran")
	}
	_, sec, _ := strings.Cut(page, `id="ran"`)
	// rolloutRolling and getNewReplicaSet ran in both scenarios (source
	// order: sync.go after deployment_controller.go), the others of the
	// package (NewDeploymentController, addDeployment, syncDeployment) in
	// none.
	rows := regexp.MustCompile(`<tr><td><a href="[^"]*"><code>([^<]*)</code></a></td><td>([^<]*)</td><td>([^<]*)</td></tr>`).FindAllStringSubmatch(sec, -1)
	var got []string
	for _, r := range rows {
		got = append(got, r[1]+" "+r[2]+" "+r[3])
	}
	want := []string{"deployment.DeploymentController.rolloutRolling 1× 4×", "deployment.DeploymentController.getNewReplicaSet 3× 6×"}
	if !slices.Equal(got, want) {
		t.Errorf("rows:\n got %q\nwant %q", got, want)
	}
	// Each scenario's heading links its run page, and the runs in which
	// a function of it ran are listed.
	if !strings.Contains(sec, `<th><a href="../recorded.html">deployment</a></th><th><a href="../recorded-rollout.html">rollout</a></th>`) || !strings.Contains(sec, `Recorded runs that exercise it: <a href="../recorded.html">deployment</a>, <a href="../recorded-rollout.html">rollout</a>`) || !strings.Contains(sec, "2 functions of its packages ran in a recorded scenario") || !strings.Contains(sec, "3 more were counted and ran in none") {
		t.Errorf("the section's head or sentence is wrong:\n%s", sec[:min(len(sec), 600)])
	}
}

// TestStepCoverageNotRun: a reference its walkthrough marks as not meant
// to run, whose code ran in no recorded scenario, has a badge that says
// so with the reason, in each language's own words (escaped); a marked
// reference whose code ran shows how often, and no reason.
func TestStepCoverageNotRun(t *testing.T) {
	why := map[string]string{"en": "only a controller manager that starts <b>without</b> informers", "ko": "인포머 없이 시작하는 컨트롤러 매니저만"}
	out, _ := buildFixture(t, func(in *Input) {
		bilingual(in)
		in.Recordings = coverageRecordings()
		for _, d := range in.Docs {
			if d.ID != "deployment" {
				continue
			}
			d.Steps[0].Refs[0].NotRun = why[d.Lang]
			d.Steps[0].Segments[1].Excerpt.NotRun = why[d.Lang]
			d.Steps[1].Segments[1].Excerpt.NotRun = why[d.Lang]
		}
	})
	files := readTree(t, out)
	badge := regexp.MustCompile(`<span class="covbadge not why">([^<]*)<span class="covwhy">([^<]*)</span></span>`)
	for lang, text := range map[string]string{"en": "did not run in the recorded scenarios: ", "ko": "기록된 시나리오에서는 실행되지 않음: "} {
		page := files[lang+"/walkthroughs/deployment.html"]
		want := text + template.HTMLEscapeString(why[lang])
		// The cited NewDeploymentController and its excerpt.
		if !strings.Contains(page, `<code>deployment.NewDeploymentController</code></a> <span class="covbadge not why">`+text+`<span class="covwhy">`+template.HTMLEscapeString(why[lang])) {
			t.Errorf("%s: the cited NewDeploymentController has no badge with the reason", lang)
		}
		_, after, _ := strings.Cut(page, `>pkg/controller/deployment/deployment_controller.go:18</a>`)
		head, _, _ := strings.Cut(after, `</div>`)
		if m := badge.FindStringSubmatch(head); m == nil || m[1]+m[2] != want {
			t.Errorf("%s: the excerpt's badge is %q, want %q", lang, m, want)
		}
		// rolloutRolling ran: its mark is not shown.
		_, after, _ = strings.Cut(page, `>pkg/controller/deployment/sync.go:7</a>`)
		head, _, _ = strings.Cut(after, `</div>`)
		if strings.Contains(head, "covwhy") || !strings.Contains(head, `<span class="covbadge ran">`) {
			t.Errorf("%s: the excerpt of code that ran shows its mark: %s", lang, head)
		}
	}
}

// TestPhaseCodeChainOrder: the Observed panel lists the code that ran in
// the order of the chain the facts tell (handler, sync, the function the
// sync calls, the write), whatever order the walkthrough cites it in and
// whatever the names; a function the facts place nowhere comes last.
func TestPhaseCodeChainOrder(t *testing.T) {
	const dc, sync = "pkg/controller/deployment/deployment_controller.go", "pkg/controller/deployment/sync.go"
	rec := fixtureRecording()
	rec.Coverage = &record.Coverage{
		Mode:     "atomic",
		Phases:   fixtureCoverage("deployment").Phases,
		Programs: []record.CoverProgram{{Name: "kube-controller-manager", Files: []int{0, 1}}},
		Files: []record.CoverFile{
			// NewDeploymentController 17-22, addDeployment 26, syncDeployment 31.
			{Path: dc, Blocks: []int{17, 5, 3, 9, 0, 1, 5, 0, 1}},
			// rolloutRolling's entry 7-8, getNewReplicaSet 21-23.
			{Path: sync, Blocks: []int{7, 1, 2, 14, 2, 3}},
		},
		// Each of the five blocks ran once while the ReplicaSet was made.
		Hits: []record.Hits{{Phase: "apply/replicaset", Program: "kube-controller-manager", Counts: []int64{0, 1, 1, 1, 1, 1, 1, 1, 1, 1}}},
	}
	const pkg = "k8s.io/kubernetes/pkg/controller/deployment"
	out, _ := buildFixture(t, func(in *Input) {
		in.Recordings = []*record.Recording{rec}
		in.Facts.Calls = append(in.Facts.Calls, fact.Call{From: pkg + ".DeploymentController.syncDeployment", To: pkg + ".DeploymentController.rolloutRolling", Kind: "static"})
		// The fixture's decl takes addDeployment(obj interface{}) for a
		// one-line declaration; its body is lines 25-27.
		for i, s := range in.Symbols {
			if s.Name == pkg+".DeploymentController.addDeployment" {
				in.Symbols[i].Decl.EndLine, in.Symbols[i].Body.EndLine = 27, 27
			}
		}
		for _, d := range in.Docs {
			if d.ID != "deployment" {
				continue
			}
			// Cited against the chain: the write, the sync, the handler.
			for _, name := range []string{"getNewReplicaSet", "syncDeployment", "addDeployment"} {
				i := slices.IndexFunc(in.Symbols, func(s fact.Symbol) bool { return s.Name == pkg+".DeploymentController."+name })
				s := in.Symbols[i]
				d.Steps[1].Refs = append(d.Steps[1].Refs, walkthrough.Ref{Text: s.Name, Line: 1, Ref: fact.Ref{Alternates: []string{s.Name}}, Resolved: fact.Resolved{Symbol: s}})
			}
		}
	})
	page := readTree(t, out)["walkthroughs/deployment.html"]
	_, panel, ok := strings.Cut(page, `Code that ran in this phase <span class="meta">(apply/replicaset)</span>`)
	if !ok {
		t.Fatal("no step lists the code that ran in apply/replicaset")
	}
	panel, _, _ = strings.Cut(panel, `</details>`)
	var got []string
	for _, m := range regexp.MustCompile(`<code>deployment\.([^<]*)</code>`).FindAllStringSubmatch(panel, -1) {
		got = append(got, m[1])
	}
	want := []string{"DeploymentController.addDeployment", "DeploymentController.syncDeployment", "DeploymentController.rolloutRolling", "DeploymentController.getNewReplicaSet", "NewDeploymentController"}
	if !slices.Equal(got, want) {
		t.Errorf("code that ran, in the order\n\t%q\nwant\n\t%q", got, want)
	}
}

// TestStepOwnCode: a step with no recorded request of its own has an
// Observed panel of the functions it cites that ran, in the phases they
// ran in, saying why it lists only those; a step none of whose cited
// functions ran has no panel.
func TestStepOwnCode(t *testing.T) {
	const dc, sync = "pkg/controller/deployment/deployment_controller.go", "pkg/controller/deployment/sync.go"
	rec := fixtureRecording()
	rec.Coverage = &record.Coverage{
		Mode:     "atomic",
		Phases:   fixtureCoverage("deployment").Phases,
		Programs: []record.CoverProgram{{Name: "kube-controller-manager", Files: []int{0, 1}}},
		Files: []record.CoverFile{
			{Path: dc, Blocks: []int{17, 5, 3, 9, 0, 1, 5, 0, 1}},
			{Path: sync, Blocks: []int{7, 1, 2, 14, 2, 3}},
		},
		// rolloutRolling's entry (block 3) ran twice in start-up and once
		// while the ReplicaSet was made; NewDeploymentController (block 0)
		// never.
		Hits: []record.Hits{
			{Phase: "startup", Program: "kube-controller-manager", Counts: []int64{3, 2}},
			{Phase: "apply/replicaset", Program: "kube-controller-manager", Counts: []int64{3, 1}},
		},
	}
	const pkg = "k8s.io/kubernetes/pkg/controller/deployment"
	out, _ := buildFixture(t, func(in *Input) {
		in.Recordings = []*record.Recording{rec}
		for _, d := range in.Docs {
			if d.ID != "deployment" {
				continue
			}
			for _, name := range []string{"DeploymentController.rolloutRolling", "NewDeploymentController"} {
				i := slices.IndexFunc(in.Symbols, func(s fact.Symbol) bool { return s.Name == pkg+"."+name })
				s := in.Symbols[i]
				d.Steps = append(d.Steps, walkthrough.Step{ID: "own-" + name, Title: "Own " + name, Line: 1,
					Refs: []walkthrough.Ref{{Text: s.Name, Line: 1, Ref: fact.Ref{Alternates: []string{s.Name}}, Resolved: fact.Resolved{Symbol: s}}}})
			}
		}
	})
	page := readTree(t, out)["walkthroughs/deployment.html"]
	_, step, ok := strings.Cut(page, `id="own-DeploymentController.rolloutRolling"`)
	if !ok {
		t.Fatal("no step own-DeploymentController.rolloutRolling")
	}
	step, other, _ := strings.Cut(step, `id="own-NewDeploymentController"`)
	_, panel, ok := strings.Cut(step, `Code that ran in this phase <span class="meta">(startup, apply/replicaset)</span>`)
	if !ok {
		t.Fatalf("the step has no panel of its code that ran in startup and apply/replicaset:\n%s", step)
	}
	panel, _, _ = strings.Cut(panel, `</details>`)
	if !strings.Contains(panel, "No request of the recorded run is shown under this step.") {
		t.Errorf("the panel does not say why it lists the step's own code:\n%s", panel)
	}
	var got []string
	for _, m := range regexp.MustCompile(`<code>([^<]*)</code></a> <span class="meta">×(\d+)</span>`).FindAllStringSubmatch(panel, -1) {
		got = append(got, m[1]+" "+m[2])
	}
	if want := []string{"deployment.DeploymentController.rolloutRolling 3"}; !slices.Equal(got, want) {
		t.Errorf("the panel lists %q, want %q", got, want)
	}
	if other, _, _ = strings.Cut(other, `</section>`); strings.Contains(other, "covran") {
		t.Errorf("a step whose cited code did not run has a panel:\n%s", other)
	}
}
