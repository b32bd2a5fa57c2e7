package deployment

import (
	"context"

	apps "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func (dc *DeploymentController) syncDeployment(ctx context.Context, key string) error {
	d := &apps.Deployment{}
	_, err := dc.getNewReplicaSet(ctx, d)
	return err
}

func (dc *DeploymentController) getNewReplicaSet(ctx context.Context, d *apps.Deployment) (*apps.ReplicaSet, error) {
	newRS := &apps.ReplicaSet{}
	createdRS, err := dc.client.AppsV1().ReplicaSets(d.Namespace).Create(ctx, newRS, metav1.CreateOptions{}) // want write "replicasets create apiVerb=create group=apps version=v1 kind=ReplicaSet via=AppsV1().ReplicaSets().Create caller=deployment.DeploymentController.getNewReplicaSet"
	if err != nil {
		return nil, err
	}
	dc.eventRecorder.Eventf(d, v1.EventTypeNormal, "ScalingReplicaSet", "Scaled up replica set %s from 0 to %d", createdRS.Name, 1) // want event "record.Eventf Normal \"ScalingReplicaSet\" reasonExpr=\"ScalingReplicaSet\" message=\"Scaled up replica set %s from 0 to %d\" caller=deployment.DeploymentController.getNewReplicaSet"
	_, err = dc.client.AppsV1().Deployments(d.Namespace).UpdateStatus(ctx, d, metav1.UpdateOptions{})                               // want write "deployments/status updatestatus apiVerb=update group=apps version=v1 kind=Deployment via=AppsV1().Deployments().UpdateStatus caller=deployment.DeploymentController.getNewReplicaSet"
	// Reads are not writes.
	_, _ = dc.client.AppsV1().ReplicaSets(d.Namespace).Get(ctx, newRS.Name, metav1.GetOptions{})
	return createdRS, err
}
