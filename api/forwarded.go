package api

import (
	"context"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// Behind a reverse proxy the peer is the proxy: the client's address, the
// scheme it used and the host it asked for come in X-Forwarded-For,
// X-Forwarded-Proto and X-Forwarded-Host. Anyone can send those headers,
// so they are believed only from the configured proxies
// (Server.TrustedProxies) and removed from every other request before
// anything reads them.

// forwardedHeaders are the headers only a trusted proxy may set.
var forwardedHeaders = []string{"X-Forwarded-For", "X-Forwarded-Proto", "X-Forwarded-Host", "Forwarded"}

// httpsKey marks a request a trusted proxy received over HTTPS.
type httpsKey struct{}

// isHTTPS reports whether the client reached the server over TLS: its own
// or a trusted proxy's. Cookies are Secure then.
func isHTTPS(r *http.Request) bool {
	return r.TLS != nil || r.Context().Value(httpsKey{}) != nil
}

// forwarded applies what a trusted proxy says about the client and strips
// the headers from anyone else.
func forwarded(trusted []netip.Prefix, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		peer, ok := peerAddr(r)
		if !ok || !trustedAddr(trusted, peer) {
			for _, h := range forwardedHeaders {
				r.Header.Del(h)
			}
			next.ServeHTTP(w, r)
			return
		}
		r = r.Clone(r.Context())
		if client, ok := forwardedClient(trusted, r.Header.Values("X-Forwarded-For")); ok {
			r.RemoteAddr = net.JoinHostPort(client.String(), "0")
		}
		if proto, _, _ := strings.Cut(r.Header.Get("X-Forwarded-Proto"), ","); strings.EqualFold(strings.TrimSpace(proto), "https") {
			r = r.WithContext(context.WithValue(r.Context(), httpsKey{}, true))
		}
		if host, _, _ := strings.Cut(r.Header.Get("X-Forwarded-Host"), ","); validHost(strings.TrimSpace(host)) {
			r.Host = strings.TrimSpace(host)
		}
		next.ServeHTTP(w, r)
	})
}

// peerAddr is the address of the request's peer.
func peerAddr(r *http.Request) (netip.Addr, bool) {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return netip.Addr{}, false
	}
	return ap.Addr().Unmap(), true
}

// trustedAddr reports whether a is one of the trusted proxies.
func trustedAddr(trusted []netip.Prefix, a netip.Addr) bool {
	for _, p := range trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// forwardedClient is the client in X-Forwarded-For: the last address not
// itself a trusted proxy, read from the right (each proxy appends the peer
// it saw; what the client wrote itself is to the left, and not believed).
func forwardedClient(trusted []netip.Prefix, values []string) (netip.Addr, bool) {
	var hops []string
	for _, v := range values {
		hops = append(hops, strings.Split(v, ",")...)
	}
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			return netip.Addr{}, false
		}
		if a = a.Unmap(); !trustedAddr(trusted, a) || i == 0 {
			return a, true
		}
	}
	return netip.Addr{}, false
}

// validHost reports whether h is a plain host or host:port.
func validHost(h string) bool {
	if h == "" || len(h) > 255 {
		return false
	}
	return !strings.ContainsFunc(h, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(".-:[]", r))
	})
}
