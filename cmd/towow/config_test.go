package main

import (
	"strings"
	"testing"
	"time"
)

// TestRetryBudget: LLM_RETRY_BUDGET defaults to twice LLM_TIMEOUT, takes a
// duration, turns retries off at zero or less, and refuses nonsense.
func TestRetryBudget(t *testing.T) {
	tests := []struct {
		timeout, budget string
		want            time.Duration
		bad             bool
	}{
		{"", "", 20 * time.Second, false},
		{"30s", "", time.Minute, false},
		{"", "45s", 45 * time.Second, false},
		{"", "0", -1, false},
		{"", "0s", -1, false},
		{"", "-2s", -1, false},
		{"", "soon", 0, true},
	}
	for _, tc := range tests {
		env := map[string]string{"LLM_TIMEOUT": tc.timeout, "LLM_RETRY_BUDGET": tc.budget}
		cfg, err := loadConfig(func(k string) string { return env[k] })
		if (err != nil) != tc.bad || (!tc.bad && cfg.RetryBudget != tc.want) {
			t.Errorf("LLM_TIMEOUT=%q LLM_RETRY_BUDGET=%q: %v %v, want %v (error: %v)", tc.timeout, tc.budget, cfg.RetryBudget, err, tc.want, tc.bad)
		}
	}
}

// TestServingSettings: TOWOW_BODY_TIMEOUT defaults to 30 s and turns off
// at zero; TOWOW_TLS_CERT and TOWOW_TLS_KEY come together;
// TOWOW_TRUSTED_PROXIES takes addresses and CIDR ranges, and refuses
// anything else in one line.
func TestServingSettings(t *testing.T) {
	tests := []struct {
		env     map[string]string
		check   func(config) bool
		errPart string
	}{
		{map[string]string{}, func(c config) bool {
			return c.BodyTimeout == 30*time.Second && c.TLSCert == "" && len(c.TrustedProxies) == 0
		}, ""},
		{map[string]string{"TOWOW_BODY_TIMEOUT": "0"}, func(c config) bool { return c.BodyTimeout < 0 }, ""},
		{map[string]string{"TOWOW_BODY_TIMEOUT": "5s"}, func(c config) bool { return c.BodyTimeout == 5*time.Second }, ""},
		{map[string]string{"TOWOW_TLS_CERT": "c.pem", "TOWOW_TLS_KEY": "k.pem"}, func(c config) bool { return c.TLSCert == "c.pem" && c.TLSKey == "k.pem" }, ""},
		{map[string]string{"TOWOW_TLS_CERT": "c.pem"}, nil, "go together"},
		{map[string]string{"TOWOW_TRUSTED_PROXIES": "127.0.0.1, 10.0.0.0/8,::1"}, func(c config) bool {
			return len(c.TrustedProxies) == 3 && c.TrustedProxies[0].String() == "127.0.0.1/32" && c.TrustedProxies[1].String() == "10.0.0.0/8" &&
				c.TrustedProxies[2].String() == "::1/128"
		}, ""},
		{map[string]string{"TOWOW_TRUSTED_PROXIES": "proxy.local"}, nil, "TOWOW_TRUSTED_PROXIES"},
	}
	for _, tc := range tests {
		cfg, err := loadConfig(func(k string) string { return tc.env[k] })
		switch {
		case tc.errPart != "" && (err == nil || !strings.Contains(err.Error(), tc.errPart)):
			t.Errorf("%v: %v, want an error saying %q", tc.env, err, tc.errPart)
		case tc.errPart == "" && (err != nil || !tc.check(cfg)):
			t.Errorf("%v: %+v %v", tc.env, cfg, err)
		}
	}
}
