// Package resolvetest provides loopback HTTP and HTTPS servers that answer
// for any host name, for tests of package resolve and of the commands that
// use it. Nothing in it touches a network beyond loopback.
package resolvetest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"
)

// Server is a plain and a TLS httptest server sharing one handler that
// dispatches on the request's host. The TLS server's certificate is
// self-signed for the names given to NewServer; Pool and CAPEM trust it.
type Server struct {
	Plain *httptest.Server // answers http:// (port 80 of every host)
	TLS   *httptest.Server // answers https:// (port 443 of every host)
	Pool  *x509.CertPool
	CAPEM []byte

	mu       sync.Mutex
	handlers map[string]http.HandlerFunc
	reqs     []Request
}

// Request is a request the server saw.
type Request struct {
	Method, Host, URI string // Host as sent (with a port if any), URI as on the request line
	Header            http.Header
	TLS               bool
	At                time.Time
}

// NewServer starts the servers; names (exact or "*." wildcards) go into
// the certificate. Close stops them. Like httptest.NewServer, it panics
// if it cannot start.
func NewServer(names ...string) *Server {
	s := &Server{handlers: map[string]http.HandlerFunc{}}
	cert, err := selfSigned(names)
	if err != nil {
		panic("resolvetest: " + err.Error())
	}
	s.Pool = x509.NewCertPool()
	s.Pool.AddCert(cert.Leaf)
	s.CAPEM = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert.Leaf.Raw})
	s.Plain = httptest.NewServer(http.HandlerFunc(s.serve))
	s.TLS = httptest.NewUnstartedServer(http.HandlerFunc(s.serve))
	s.TLS.TLS = &tls.Config{Certificates: []tls.Certificate{cert}}
	// Handshakes cut short by a test's own timeouts are expected.
	s.TLS.Config.ErrorLog = log.New(io.Discard, "", 0)
	s.TLS.StartTLS()
	return s
}

// Close shuts both servers down.
func (s *Server) Close() {
	s.Plain.Close()
	s.TLS.Close()
}

func selfSigned(names []string) (tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, err
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "urlnorm resolvetest"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		DNSNames:              names,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, err
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		return tls.Certificate{}, err
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, nil
}

// Handle serves host (a name without a port) with h. A request for a
// host without a handler gets 421 Misdirected Request.
func (s *Server) Handle(host string, h http.HandlerFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.handlers[host] = h
}

// Hosts returns the hosts with a handler.
func (s *Server) Hosts() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	hosts := make([]string, 0, len(s.handlers))
	for h := range s.handlers {
		hosts = append(hosts, h)
	}
	return hosts
}

// ConnectTo maps port 80 and 443 of every handled host to the servers,
// in the form of resolve.Config.ConnectTo.
func (s *Server) ConnectTo() map[string]string {
	m := map[string]string{}
	for _, h := range s.Hosts() {
		m[net.JoinHostPort(h, "80")] = s.Plain.Listener.Addr().String()
		m[net.JoinHostPort(h, "443")] = s.TLS.Listener.Addr().String()
	}
	return m
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	host, _, err := net.SplitHostPort(r.Host)
	if err != nil {
		host = r.Host
	}
	s.mu.Lock()
	s.reqs = append(s.reqs, Request{r.Method, r.Host, r.RequestURI, r.Header.Clone(), r.TLS != nil, time.Now()})
	h := s.handlers[host]
	s.mu.Unlock()
	if h == nil {
		http.Error(w, "resolvetest: no handler for "+host, http.StatusMisdirectedRequest)
		return
	}
	h(w, r)
}

// Requests returns the requests seen for host (any port), or all of them
// for "".
func (s *Server) Requests(host string) []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Request
	for _, r := range s.reqs {
		h, _, err := net.SplitHostPort(r.Host)
		if err != nil {
			h = r.Host
		}
		if host == "" || h == host {
			out = append(out, r)
		}
	}
	return out
}

// Redirect answers every request with status and Location loc, written
// as given (http.Redirect would clean it).
func Redirect(status int, loc string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Location"] = []string{loc}
		w.WriteHeader(status)
	}
}

// OK answers 200 "ok".
func OK(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("ok")) }

// ByPath serves each request with the handler of its URL path, and 404
// for other paths.
func ByPath(m map[string]http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if h, ok := m[r.URL.Path]; ok {
			h(w, r)
			return
		}
		http.NotFound(w, r)
	}
}
