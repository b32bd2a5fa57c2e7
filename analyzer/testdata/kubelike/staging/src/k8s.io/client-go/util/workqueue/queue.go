package workqueue

import "time"

type TypedInterface[T comparable] interface {
	Add(item T)
	Get() (item T, shutdown bool)
	Done(item T)
}

type TypedDelayingInterface[T comparable] interface {
	TypedInterface[T]
	AddAfter(item T, duration time.Duration)
}

type TypedRateLimitingInterface[T comparable] interface {
	TypedDelayingInterface[T]
	AddRateLimited(item T)
	Forget(item T)
}

// RateLimitingInterface is the pre-generics name.
type RateLimitingInterface TypedRateLimitingInterface[any]

func NewTypedRateLimitingQueue[T comparable]() TypedRateLimitingInterface[T] { return nil }

func NewRateLimitingQueue() RateLimitingInterface { return nil }
