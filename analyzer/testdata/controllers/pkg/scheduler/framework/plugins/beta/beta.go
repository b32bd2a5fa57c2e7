package beta

import "k8s.io/kubernetes/pkg/scheduler/framework"

const Name = "Beta"

// Beta binds and enqueues before the queue, with no events; its Score
// lacks ScoreExtensions, so it is not a ScorePlugin.
type Beta struct{}

func New(args any) (framework.Plugin, error) { return &Beta{}, nil }

func (b *Beta) Name() string                          { return Name }
func (b *Beta) PreEnqueue(pod string) error           { return nil }
func (b *Beta) Bind(pod, node string) error           { return nil }
func (b *Beta) Score(pod, node string) (int64, error) { return 0, nil }
