package app

import (
	"crypto/tls"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"
)

// certReloadEvery is how often a handshake looks at the certificate files
// again: a renewed certificate (certbot, cert-manager) is served within
// this long, without a restart.
const certReloadEvery = 30 * time.Second

// certificate serves the key pair of two PEM files, reloaded when either
// file changes; a pair that fails to load keeps the one before (logged).
type certificate struct {
	certFile, keyFile string
	log               *slog.Logger

	mu      sync.Mutex
	cert    *tls.Certificate
	stamp   string // the files' sizes and modification times
	checked time.Time
}

// loadCertificate reads the pair once, for the start to fail early on a
// missing or broken file.
func loadCertificate(certFile, keyFile string, log *slog.Logger) (*certificate, error) {
	c := &certificate{certFile: certFile, keyFile: keyFile, log: log}
	stamp, err := c.fileStamp()
	if err != nil {
		return nil, err
	}
	pair, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("TOWOW_TLS_CERT and TOWOW_TLS_KEY: %w", err)
	}
	c.cert, c.stamp, c.checked = &pair, stamp, time.Now()
	return c, nil
}

// fileStamp identifies the files' current contents cheaply.
func (c *certificate) fileStamp() (string, error) {
	var stamp string
	for _, f := range []string{c.certFile, c.keyFile} {
		st, err := os.Stat(f)
		if err != nil {
			return "", fmt.Errorf("TLS certificate: %w", err)
		}
		stamp += fmt.Sprintf("%d@%d;", st.Size(), st.ModTime().UnixNano())
	}
	return stamp, nil
}

// get is tls.Config.GetCertificate.
func (c *certificate) get(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if time.Since(c.checked) < certReloadEvery {
		return c.cert, nil
	}
	c.checked = time.Now()
	stamp, err := c.fileStamp()
	if err != nil || stamp == c.stamp {
		return c.cert, nil
	}
	pair, err := tls.LoadX509KeyPair(c.certFile, c.keyFile)
	if err != nil {
		c.log.Error("TLS certificate changed but does not load; still serving the previous one", "err", err)
		return c.cert, nil
	}
	c.cert, c.stamp = &pair, stamp
	c.log.Info("TLS certificate reloaded", "file", c.certFile)
	return c.cert, nil
}

// tlsConfig is the server's TLS configuration: TLS 1.2 and 1.3 only, and
// for 1.2 only forward-secret AEAD suites (Mozilla's "intermediate"
// profile); HTTP/2 is offered by net/http's ServeTLS.
func tlsConfig(c *certificate) *tls.Config {
	return &tls.Config{
		MinVersion:     tls.VersionTLS12,
		GetCertificate: c.get,
		CipherSuites: []uint16{
			tls.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, tls.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
			tls.TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384, tls.TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
			tls.TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256, tls.TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
		},
	}
}
