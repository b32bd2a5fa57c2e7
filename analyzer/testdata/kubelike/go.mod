// The kubelike fixture: a tiny tree in Kubernetes' layout (the
// k8s.io/kubernetes module at the root, staging modules under
// staging/src/k8s.io), loaded through go.work with no network.
module k8s.io/kubernetes

go 1.22
