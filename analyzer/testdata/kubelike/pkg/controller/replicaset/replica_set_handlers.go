package replicaset

import "context"

func (rsc *ReplicaSetController) addRS(ctx context.Context, obj interface{}) {
	rsc.queue.AddRateLimited(obj)
}

func (rsc *ReplicaSetController) updateRS(ctx context.Context, old, cur interface{}) {
	rsc.addRS(ctx, cur)
}

func (rsc *ReplicaSetController) deleteRS(obj interface{}) {
	rsc.queue.Add(obj)
}

func (rsc *ReplicaSetController) addPod(obj interface{}) {}
