// Package e2e holds the end-to-end tests: they drive the built kubewalk
// binary (KUBEWALK_BIN) on real Kubernetes fetched through the Go module
// proxy, as a user would, and read its output (JSON lists, built sites).
//
// They run with `make e2e` (build tag e2e), which builds the binary and
// sets KUBEWALK_BIN, KUBEWALK_E2E_CACHE (one cache for every test, so a
// release is fetched and analysed once) and KUBEWALK_ARTIFACTS. Without
// KUBEWALK_BIN they skip. This file has no build tag so that the package
// exists for `go vet` and `go test ./...` without the tag; nor have
// compare_test.go, what the recording tests decide when they compare a
// fresh recording with the kept one, and its unit tests, which `go test`
// runs without a binary.
package e2e
