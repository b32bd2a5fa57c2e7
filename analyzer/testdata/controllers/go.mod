// The controllers fixture: kube-controller-manager's controller list in
// both shapes (descriptors, and the initializer map of older releases),
// and a scheduler plugin registry, with no dependency but the standard
// library. Each entry's expectations sit in controllers_test.go.
module k8s.io/kubernetes

go 1.22
