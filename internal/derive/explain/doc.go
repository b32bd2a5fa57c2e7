// Package explain connects what a running cluster prints to the code of a
// release: each line of `kubectl get events` output (any layout kubectl
// prints, with or without --watch, -o wide or -A), each event of
// `kubectl get events -o json`, and each API server audit record is matched
// against the analyzer's facts — the recorder call that emitted an event's
// reason, the client call that made an audited write — and against
// the walkthroughs, for the step that explains it.
//
// It is two pure stages over plain data, with no I/O:
//
//	recs := explain.Parse(input)                  // []Record, one per input line or JSON value
//	x := explain.New(facts, docs, tree.Permalink) // indexes facts and walkthrough steps once
//	for _, e := range x.Explain(recs) { … }       // one Explanation per Record, in order
//
// Parse never fails and never drops a line: what it cannot read becomes a
// Record of Kind "unknown", and Explain lists it as unexplained. Blank lines
// and table headers are the only lines left out (they carry no record).
//
// # Matching
//
// An event is matched by its reason against fact.Event facts whose
// reason is that constant, or whose reason is set at run time and reaches
// it (Event.ReasonValues; one point less). Several call sites often share a reason
// (SuccessfulCreate is recorded by RealPodControl.createPods for the
// replicaset, job and daemonset controllers, and by the cronjob controller
// for Jobs), so candidates are ranked, never silently discarded:
//
//   - the component that reported the event (the SOURCE column of -o wide,
//     source.component or reportingComponent in JSON) or, failing that, the
//     controller implied by the involved object's kind (replicaset/… was
//     reported by the replicaset controller), mapped to a package directory
//     ("replicaset-controller" → pkg/controller/replicaset); a call site in
//     that package ranks first, one reached from it through the call graph
//     (a shared helper like RealPodControl) next;
//   - the message, against the call site's format or, for a message set at
//     run time, the formats that reach it (Event.MessageValues): "Created
//     pod: %v" matches "Created pod: nginx-…", "Created job %v" does not;
//     verbs are read by kind (%d prints digits, %q a quoted string), and a
//     format of verbs alone, which prints anything, counts half. When no
//     candidate's format could have printed the message, the note says the
//     line may come from another release (messages are reworded between
//     releases, reasons seldom);
//   - the event type (Normal or Warning).
//
// The best-ranked candidates are reported (ties all of them). An audit
// record is matched by verb, resource and subresource against
// fact.Write facts (by the API verb, so a Bind is a create of
// pods/binding), narrowed by the component its user name or user agent
// names (system:serviceaccount:kube-system:deployment-controller →
// pkg/controller/deployment, kube-scheduler/… → pkg/scheduler). A write
// whose resource is set at run time (kubectl's resource.Helper,
// Write.ResourceDynamic) matches its own component's request for any
// resource, one point below a write naming the resource. Reads
// (get, list, watch) are matched against informer handler registrations
// of the resource instead.
//
// A walkthrough step explains a record when its facts block lists a
// matched fact (events: reason=ScalingReplicaSet), or when one of its
// references or excerpts covers the matched call site.
//
// # A whole run
//
// Attribute explains a recording (and ReadAuditLog turns an audit log
// into one) item by item as One does, then goes where pasted lines stop
// (whole.go): a watch is explained by the code that opened it, not by the
// handlers of its resource — a list-watch the component makes itself with
// the request's field selector (the kubelet's pods of its node), else the
// component's requests to an informer factory for the resource
// (fact.InformerRequest: every Informer() and Lister() call, those whose
// factory carries the request's field selector first, and the handlers
// registered on that informer: one watch serves them all), else its
// requests for resources chosen at run time (ForResource: the garbage
// collector's and the quota monitor's); Explanation.Rule says which rule
// found the code, and Explanation.Watch carries the request's selectors
// and parameters, each with what it means and the client-go function
// that sets it. A write chooses among its component's write sites by
// the chain (chain.go): the component's write right before it, of
// something else, made in one function that makes this one too (a sync
// that creates a ReplicaSet and then updates the Deployment's status);
// else the last earlier write that sets off one of the component's
// handlers, whose queue feeds a sync function: the sites that sync
// reaches are kept. Rule says which decided, also when nothing was left
// out. A write is put under the steps citing its line, else under those
// citing the function that made it or its callers, never under a step
// for an informer that merely watches its resource. What
// kube-controller-manager writes as itself while its controllers have
// credentials of their own is its own code's (the client builder's),
// never a controller's. An item no fact explains keeps a reason: for the code
// that runs in packages the analysis takes no facts from (the API
// server's post-start hooks, the controller manager's client builder),
// startup.go names the code and its package. Summary counts the items by
// kind (events, writes, watches) and phase (start-up, scenario,
// background) and gives the closing line of `kubewalk explain
// --recording` and `--audit`. None of this changes One's answer for
// pasted input, which explain.js must give too.
//
// Attribute is two calls (pending.go): MatchCode matches every item to
// code and reads the facts only — a CodeMatch, each item's explanation
// but for its steps, with what they are to be found from — and
// AttributeSteps puts the items under the walkthroughs' steps. A caller
// that attributes one recording under successive walkthroughs keeps the
// CodeMatch (the site's Cache, as kubewalk serve rebuilds after an
// edit) and redoes only the steps.
//
// # In the browser
//
// The site's explain page gives the same answers without a server.
// Explainer.Index hands it, as plain data, everything that does not
// depend on the input — each call site's Code, the steps that explain it
// and how well (the scores stepsFor adds up), the package directories it
// is reached from (the set reachedFrom asks about), the component tables —
// and templates/assets/explain.js ports the rest, function for function:
// Parse, the ranking above, the component rules. testdata/corpus holds
// the inputs both are held to: site/explain_parity_test.go pastes each
// into the page in headless Chromium and compares every line with
// Explain's answer, and testdata/site-fixture.golden.json pins those
// answers (go test ./site -run TestExplainCorpusGolden -update-parity).
// A change to a rule here is a change to explain.js too; the few
// differences a browser cannot avoid are listed at the top of explain.js.
package explain
