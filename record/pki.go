package record

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// pki is the run's certificate authority and the credentials made from it,
// as hack/local-up-cluster.sh makes them: one CA signs the API server's
// serving certificate and a client certificate per identity, whose common
// name is the user and whose organisations are the groups.
type pki struct {
	dir    string
	caCert *x509.Certificate
	caKey  *ecdsa.PrivateKey
	caFile string
	// saKeyFile signs and verifies service account tokens (the API server's
	// --service-account-signing-key-file and --service-account-key-file,
	// the controller manager's --service-account-private-key-file).
	saKeyFile string
	// serial numbers the certificates issued.
	serial int64
}

// identity is a client certificate's subject.
type identity struct {
	file   string // base name of the certificate and kubeconfig files
	user   string
	groups []string
}

// The identities of a run. The admin is kubeadm's, so the audit log reads
// "kubernetes-admin" as on the clusters the blog posts used.
var (
	adminID      = identity{"admin", "kubernetes-admin", []string{"system:masters"}}
	controllerID = identity{"controller-manager", "system:kube-controller-manager", nil}
	schedulerID  = identity{"scheduler", "system:kube-scheduler", nil}
	nodeID       = identity{"kubelet", "system:node:" + nodeName, []string{"system:nodes"}}
)

// nodeName is the hollow node's name.
const nodeName = "node1"

func newPKI(dir string) (*pki, error) {
	p := &pki{dir: dir}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "kubewalk-ca"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, err
	}
	p.caCert, err = x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	p.caKey = key
	p.caFile = filepath.Join(dir, "ca.crt")
	if err := writePEM(p.caFile, "CERTIFICATE", der); err != nil {
		return nil, err
	}
	if err := writeKey(filepath.Join(dir, "ca.key"), key); err != nil {
		return nil, err
	}
	// Service account tokens are signed with RSA, as upstream's scripts do.
	sa, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, err
	}
	p.saKeyFile = filepath.Join(dir, "service-account.key")
	if err := writePEM(p.saKeyFile, "RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(sa)); err != nil {
		return nil, err
	}
	return p, nil
}

// issue writes name.crt and name.key, signed by the CA: a serving
// certificate for 127.0.0.1 and localhost when server is true, else a
// client certificate for id.
func (p *pki) issue(name string, id identity, server bool) (certFile, keyFile string, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return "", "", err
	}
	p.serial++
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1 + p.serial),
		Subject:      pkix.Name{CommonName: id.user, Organization: id.groups},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	if server {
		tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
		tmpl.IPAddresses = []net.IP{net.IPv4(127, 0, 0, 1), net.IPv4(10, 0, 0, 1)}
		tmpl.DNSNames = []string{"localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc", "kubernetes.default.svc.cluster.local"}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, p.caCert, &key.PublicKey, p.caKey)
	if err != nil {
		return "", "", err
	}
	certFile = filepath.Join(p.dir, name+".crt")
	keyFile = filepath.Join(p.dir, name+".key")
	if err := writePEM(certFile, "CERTIFICATE", der); err != nil {
		return "", "", err
	}
	return certFile, keyFile, writeKey(keyFile, key)
}

// kubeconfig writes name.kubeconfig for id against the API server at
// server (https://127.0.0.1:port) and returns its path.
func (p *pki) kubeconfig(id identity, server string) (string, error) {
	cert, key, err := p.issue(id.file, id, false)
	if err != nil {
		return "", err
	}
	cfg := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: kubewalk
  cluster:
    server: %s
    certificate-authority: %s
users:
- name: %s
  user:
    client-certificate: %s
    client-key: %s
contexts:
- name: kubewalk
  context:
    cluster: kubewalk
    user: %s
current-context: kubewalk
`, server, p.caFile, id.user, cert, key, id.user)
	name := filepath.Join(p.dir, id.file+".kubeconfig")
	return name, os.WriteFile(name, []byte(cfg), 0o600)
}

// tlsConfig is a client configuration for id, for kubewalk's own reads of
// the API (events, pods): it authenticates as id and trusts the CA.
func (p *pki) tlsConfig(id identity) (*tls.Config, error) {
	pair, err := tls.LoadX509KeyPair(filepath.Join(p.dir, id.file+".crt"), filepath.Join(p.dir, id.file+".key"))
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	pool.AddCert(p.caCert)
	return &tls.Config{Certificates: []tls.Certificate{pair}, RootCAs: pool, MinVersion: tls.VersionTLS12}, nil
}

func writePEM(name, typ string, der []byte) error {
	return os.WriteFile(name, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600)
}

func writeKey(name string, key *ecdsa.PrivateKey) error {
	der, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return err
	}
	return writePEM(name, "EC PRIVATE KEY", der)
}
