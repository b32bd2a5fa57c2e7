package record

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// standInMain is a stand-in for every long-running program of a run, its
// role the first argument: etcd answers /health over HTTP; the API server
// serves TLS with the certificate the run issued it, is ready, has a Ready
// node and the default namespace's ServiceAccount and CA, and no pods; the
// controller manager and the scheduler answer /healthz over TLS; the
// kubelet waits. A run with it goes on to the apply and waits for pods
// that never come.
const standInMain = `package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"math/big"
	"net/http"
	"os"
	"strings"
)

func flag(name string) string {
	for _, a := range os.Args[2:] {
		if v, ok := strings.CutPrefix(a, "--"+name+"="); ok {
			return v
		}
	}
	return ""
}

func selfSigned() tls.Certificate {
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	der, _ := x509.CreateCertificate(rand.Reader, &x509.Certificate{SerialNumber: big.NewInt(1)}, &x509.Certificate{SerialNumber: big.NewInt(1)}, &key.PublicKey, key)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

func serveTLS(cert tls.Certificate, h http.HandlerFunc) {
	s := &http.Server{Addr: "127.0.0.1:" + flag("secure-port"), Handler: h, TLSConfig: &tls.Config{Certificates: []tls.Certificate{cert}}}
	panic(s.ListenAndServeTLS("", ""))
}

func main() {
	ok := func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }
	switch os.Args[1] {
	case "etcd":
		addr := strings.TrimPrefix(flag("listen-client-urls"), "http://")
		panic(http.ListenAndServe(addr, http.HandlerFunc(ok)))
	case "kube-apiserver":
		cert, err := tls.LoadX509KeyPair(flag("tls-cert-file"), flag("tls-private-key-file"))
		if err != nil {
			panic(err)
		}
		serveTLS(cert, func(w http.ResponseWriter, r *http.Request) {
			switch {
			case r.URL.Path == "/readyz":
				ok(w, r)
			case strings.HasPrefix(r.URL.Path, "/api/v1/nodes/"):
				w.Write([]byte(` + "`" + `{"status":{"conditions":[{"type":"Ready","status":"True"}]}}` + "`" + `))
			default:
				w.Write([]byte(` + "`" + `{"items":[]}` + "`" + `))
			}
		})
	case "kube-controller-manager", "kube-scheduler":
		serveTLS(selfSigned(), ok)
	default:
		select {}
	}
}
`

// buildStandIn builds standInMain and returns the program.
func buildStandIn(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	src := t.TempDir()
	for name, data := range map[string]string{"go.mod": "module standin\n\ngo 1.22\n", "main.go": standInMain} {
		if err := os.WriteFile(filepath.Join(src, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(t.TempDir(), "standin")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// standInBins returns Binaries whose programs are the stand-in bin, and
// kubectl the shell script given.
func standInBins(t *testing.T, bin, kubectl string) *Binaries {
	t.Helper()
	scripts := map[string]string{"kubectl": kubectl}
	for _, p := range Programs {
		if p != "kubectl" {
			scripts[p] = "exec " + bin + " " + p + ` "$@"`
		}
	}
	return fakeBins(t, scripts)
}
