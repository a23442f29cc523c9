package api

import (
	"encoding/base64"
	"net/http"
	"strconv"
	"testing"
	"time"
)

// TestValidSession: the admin session cookie of a Mount with Session is
// valid only for its scope, before its expiry, under the admin token that
// signed it, and as signed.
func TestValidSession(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	s := &Server{AdminToken: "admin-token-0123456789"}
	other := &Server{AdminToken: "admin-token-9876543210"}
	good := s.sessionValue("/riverui", now.Add(time.Hour).Unix())
	exp := strconv.FormatInt(now.Add(time.Hour).Unix(), 10)
	tests := []struct {
		name   string
		server *Server
		scope  string
		value  string
		ok     bool
	}{
		{"signed, in scope, not expired", s, "/riverui", good, true},
		{"another scope", s, "/mcp", good, false},
		{"the admin token changed", other, "/riverui", good, false},
		{"no admin token configured", &Server{}, "/riverui", good, false},
		{"expired", s, "/riverui", s.sessionValue("/riverui", now.Add(-time.Second).Unix()), false},
		{"expiring right now", s, "/riverui", s.sessionValue("/riverui", now.Unix()), false},
		{"expiry beyond the session's lifetime", s, "/riverui", s.sessionValue("/riverui", now.Add(SessionTTL+time.Hour).Unix()), false},
		{"expiry moved, signature kept", s, "/riverui", strconv.FormatInt(now.Add(2*time.Hour).Unix(), 10) + good[len(exp):], false},
		{"signature truncated", s, "/riverui", good[:len(good)-2], false},
		{"no signature", s, "/riverui", exp, false},
		{"not base64", s, "/riverui", exp + ".!!!", false},
		{"the admin token itself", s, "/riverui", "admin-token-0123456789", false},
		{"empty", s, "/riverui", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, _ := http.NewRequest(http.MethodGet, "http://x/riverui/", nil)
			r.AddCookie(&http.Cookie{Name: SessionCookie, Value: tc.value})
			if got := tc.server.validSession(r, tc.scope, now); got != tc.ok {
				t.Fatalf("validSession = %v, want %v (value %q)", got, tc.ok, tc.value)
			}
		})
	}
}

// TestJWTExpiry: the expiry a protected mount gives the SDK is the exp
// claim of a JWT, and nothing (the caller then bounds it) for anything
// else.
func TestJWTExpiry(t *testing.T) {
	enc := base64.RawURLEncoding.EncodeToString
	tests := []struct {
		name  string
		token string
		exp   int64 // 0: none
	}{
		{"a JWT", "h." + enc([]byte(`{"sub":"alice","exp":1800000000}`)) + ".s", 1800000000},
		{"a JWT with a fractional exp", "h." + enc([]byte(`{"exp":1800000000.5}`)) + ".s", 1800000000},
		{"no exp", "h." + enc([]byte(`{"sub":"alice"}`)) + ".s", 0},
		{"exp not a number", "h." + enc([]byte(`{"exp":"soon"}`)) + ".s", 0},
		{"payload not base64", "h.!!!.s", 0},
		{"payload not JSON", "h." + enc([]byte(`exp`)) + ".s", 0},
		{"not a JWT", "admin-token-0123456789", 0},
		{"two parts", "a.b", 0},
	}
	for _, tc := range tests {
		got, ok := jwtExpiry(tc.token)
		if ok != (tc.exp != 0) || (ok && got.Unix() != tc.exp) {
			t.Errorf("%s: jwtExpiry = %v, %v; want %d", tc.name, got, ok, tc.exp)
		}
	}
}
