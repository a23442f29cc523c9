package main

import (
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
