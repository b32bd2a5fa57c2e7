// Package trace derives chains like the one the walkthroughs tell —
// Deployment → deployment controller → ReplicaSet → replicaset controller
// → Pod → scheduler → binding → kubelet — from the analyzer's facts
// alone: one component's sync path writes a resource, another component
// watches that resource. It is pure: Derive reads fact.Facts and the
// symbol index; the caller may hand in the tree's files (Input.Source) for
// the two things the facts do not record (a raw list-watch's resource
// string, and the source line a Markdown excerpt's lines: pattern should
// match).
//
// # The algorithm
//
// From a resource R (the root, or one written above) and the watch event
// the write produces ("add" for a create, "update" for a binding):
//
//  1. Watchers of R: every handler registration whose informer resource is
//     R (group and resource; versions ignored), and every raw list-watch
//     of R outside client-go that is not fed to an informer — the
//     analyzer's ListWatches facts: cache.NewListWatchFromClient,
//     NewFilteredListWatchFromClient or a cache.ListWatch literal, with
//     the reflector it feeds and its store's push function. The facts
//     carry its resource (the resource argument, or the typed client's
//     List and Watch calls, completed by the reflector's example object)
//     and the fields of its field selector: spec.nodeName for the
//     kubelet's API-server pod source, pkg/kubelet/config.NewSourceApiserver.
//  2. Handler: the registration's handler for the event, else its others.
//  3. Sync: the controller type is the handler's receiver (or, for a func
//     literal, the receiver of a method it forwards to), or one wired in
//     the registering function; only types of the component's own
//     directory count. Of that type's wirings, one with a worker loop
//     wins, then a field named sync…, then one with a queue whose function
//     is not itself an enqueuer (`enqueueDeployment = dc.enqueue` wires an
//     enqueuer). No wiring: the type's Run method is the entry (the
//     scheduler's Run starts ScheduleOne). Neither: the handler itself.
//  4. Queue: the shortest call path (at most four calls) from the handler
//     to one of the wiring's enqueuers, through func fields too (the
//     analyzer's "func field" edges: addDeployment → dc.enqueueDeployment
//     → enqueue); failing that, a func field of the same type wired to an
//     enqueuer is assumed to be how the handler reaches it, and the hop
//     says so.
//  5. Writes: a breadth-first search over call edges from the sync entry
//     (Options.MaxCallDepth, 12 by default), not entering functions of
//     another component's directory (a directory with registrations or
//     wirings that is neither the watcher's, nor a parent of it — shared
//     helpers such as pkg/controller's RealPodControl stay in — nor inside
//     it). Interface edges are what connect a controller to its helper:
//     manageReplicas → PodControlInterface.CreatePods →
//     RealPodControl.CreatePods → createPods, where the writes pass
//     records the Pods(ns).Create. Writes are grouped by resource,
//     subresource and API verb; each group keeps its Options.PathsPerWrite
//     shortest paths and counts the rest. Of two paths of the same length
//     the one whose calls come first in the source wins, so output is
//     deterministic.
//  6. Follow: creations of a whole object (API verb create, no
//     subresource) and bindings (pods/binding) lead to the next node, at
//     the written resource. Everything else — updates, patches, deletes,
//     status writes, evictions, token requests — is summarised per
//     watcher, writes of other resources first, then those of the watched
//     resource itself (status updates); following them would put every
//     watcher of every resource into every trace.
//
// # Limiting noise
//
// A watcher is expanded (steps 3–6) once in the whole trace, the first time
// it is met depth first; later it is "seen". A watcher already on the path
// above is an "ancestor" (feedback: the deployment controller watches the
// ReplicaSets it made). A watcher whose sync works on another resource is
// "secondary": its watch of R only enqueues owners or dependents (the job
// controller watches pods to requeue their Job). Which resource a sync
// works on is told by names: the first of the sync function's name, the
// type's other wired functions, the type's name and the package's name
// that contains one of the kinds the component watches (syncDeployment →
// Deployment; a kind inside a longer matched kind, Pod in PodGroup, does
// not count). When no name tells and the component watches several
// kinds, the watcher is secondary too, with that reason. A list-watch
// selecting spec.nodeName sees a pod only once it is bound: it is
// "after-binding" at the pod's creation and a watcher at the binding.
// Beyond Options.Depth resource hops watchers are listed ("depth"), not
// expanded.
//
// # What it connects and what it cannot
//
// It connects what call edges, wirings and registrations show: handler
// → enqueuer, sync → helpers → typed-client write, through interfaces
// with few implementations. It cannot see through channels (the kubelet's
// pod source sends to PodConfig's channel; the trace stops there and says
// so), func values held in variables (other than wired fields), informers
// whose resource the analyzer could not tell, dynamic and metadata
// informers (the garbage collector), writes through the REST client,
// controllers outside the analysed roots, or which handler a
// FilteringResourceEventHandler lets an event through to. Every hop it
// could not connect is listed on the watcher (Watcher.Unconnected) with
// the reason.
//
// The API server sits between every write and every watch. Trace.APIServer
// names its create path (handlers.createHandler, the generic registry's
// Store.Create, the watch cache's Cacher.Watch) once, for the top of the
// output, rather than at every hop.
//
// # Output
//
// WriteText prints the tree with file:line for every hop; the Trace value
// marshals to JSON as is; WriteMarkdown writes a draft walkthrough that
// passes `kubewalk check`: one step per watcher followed and per write
// followed, each with an excerpt anchored by symbol.
package trace
