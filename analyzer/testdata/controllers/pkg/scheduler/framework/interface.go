package framework

// The framework's plugin interfaces, in the order the real one declares
// them, cut down to one method each where the real one has more.

type Plugin interface{ Name() string }

type PreEnqueuePlugin interface {
	Plugin
	PreEnqueue(pod string) error
}

type QueueSortPlugin interface {
	Plugin
	Less(a, b string) bool
}

type EnqueueExtensions interface {
	Plugin
	EventsToRegister() ([]ClusterEventWithHint, error)
}

type PreFilterExtensions interface {
	AddPod(pod string) error
	RemovePod(pod string) error
}

type PreFilterPlugin interface {
	Plugin
	PreFilter(pod string) error
	PreFilterExtensions() PreFilterExtensions
}

type FilterPlugin interface {
	Plugin
	Filter(pod, node string) error
}

type ScoreExtensions interface {
	NormalizeScore(scores []int64) error
}

type ScorePlugin interface {
	Plugin
	Score(pod, node string) (int64, error)
	ScoreExtensions() ScoreExtensions
}

type BindPlugin interface {
	Plugin
	Bind(pod, node string) error
}

type EventResource string

const (
	Pod  EventResource = "Pod"
	Node EventResource = "Node"
)

type ActionType int64

const (
	Add ActionType = 1 << iota
	Delete
	UpdateNodeLabel
)

type ClusterEvent struct {
	Resource   EventResource
	ActionType ActionType
}

type QueueingHintFn func(pod string, old, new any) (bool, error)

type ClusterEventWithHint struct {
	Event          ClusterEvent
	QueueingHintFn QueueingHintFn
}
