//go:build kubewalk_helper

// Command etcd is the etcd server of the release's own go.mod requirement,
// built by kubewalk record beside the Kubernetes tree. It is etcd's own
// etcdmain.Main, so its flags are etcd's. Run as "etcd kubewalk-keys
// ENDPOINT PREFIX..." it instead lists the keys under the prefixes as JSON
// lines, through the etcd client, each with its values since the cluster
// began decoded with the release's client-go scheme.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "kubewalk-keys" {
		os.Exit(listKeys(os.Args[2:]))
	}
	etcdmain.Main(os.Args)
}
