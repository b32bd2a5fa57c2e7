package alpha

import "k8s.io/kubernetes/pkg/scheduler/framework"

const Name = "Alpha"

// Alpha filters and scores, with a NormalizeScore through ScoreExtensions,
// and registers for two events, one through a variable.
type Alpha struct{}

func New(args any, fts bool) (framework.Plugin, error) {
	pl := &Alpha{}
	return pl, nil
}

func (pl *Alpha) Name() string                                       { return Name }
func (pl *Alpha) PreFilter(pod string) error                         { return nil }
func (pl *Alpha) PreFilterExtensions() framework.PreFilterExtensions { return pl }
func (pl *Alpha) AddPod(pod string) error                            { return nil }
func (pl *Alpha) RemovePod(pod string) error                         { return nil }
func (pl *Alpha) Filter(pod, node string) error                      { return nil }
func (pl *Alpha) Score(pod, node string) (int64, error)              { return 0, nil }
func (pl *Alpha) ScoreExtensions() framework.ScoreExtensions         { return pl }
func (pl *Alpha) NormalizeScore(scores []int64) error                { return nil }

func (pl *Alpha) EventsToRegister() ([]framework.ClusterEventWithHint, error) {
	nodeAction := framework.Add | framework.UpdateNodeLabel
	podDeleted := framework.ClusterEvent{Resource: framework.Pod, ActionType: framework.Delete}
	return []framework.ClusterEventWithHint{
		{Event: framework.ClusterEvent{Resource: framework.Node, ActionType: nodeAction}, QueueingHintFn: pl.afterNodeChange},
		{Event: podDeleted, QueueingHintFn: pl.afterPodDeleted},
	}, nil
}

func (pl *Alpha) afterNodeChange(pod string, old, new any) (bool, error) { return true, nil }
func (pl *Alpha) afterPodDeleted(pod string, old, new any) (bool, error) { return true, nil }
