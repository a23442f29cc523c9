package main

import (
	"io"

	"github.com/towow/towow/app"
	"github.com/towow/towow/llm"
	"github.com/towow/towow/llm/builtin"
)

// provider builds the LLM provider TOWOW_LLM names.
func (c config) provider() llm.Provider {
	switch c.LLM {
	case "anthropic":
		return llm.NewAnthropic(llm.AnthropicConfig{APIKey: c.AnthropicKey, BaseURL: c.AnthropicURL, Model: c.LLMModel})
	case "openai":
		return llm.NewOpenAI(llm.OpenAIConfig{APIKey: c.OpenAIKey, BaseURL: c.OpenAIURL, Model: c.LLMModel})
	}
	if c.builtinExact {
		return builtin.NewWithExactLatency(c.builtinLatency)
	}
	return builtin.NewWithLatency(c.builtinLatency)
}

// app is the App configuration of a command: the write side, the LLM and the
// database from the environment, logging to stderr.
func (c config) app(stderr io.Writer, quiet bool) app.Config {
	logger := c.logger(stderr)
	if quiet {
		logger = c.quietLogger(stderr)
	}
	return app.Config{
		DatabaseURL:    c.DatabaseURL,
		DataDir:        c.DataDir,
		LLMRequired:    c.LLMRequired,
		CORSOrigins:    c.CORSOrigins,
		AdminToken:     c.AdminToken,
		Limits:         c.Limits,
		BodyTimeout:    c.BodyTimeout,
		TLSCertFile:    c.TLSCert,
		TLSKeyFile:     c.TLSKey,
		TrustedProxies: c.TrustedProxies,
		LLM: llm.Config{Provider: c.provider(), Timeout: c.LLMTimeout, RetryBudget: c.RetryBudget,
			FailureThreshold: uint32(c.FailureThreshold), RecoveryTimeout: c.RecoveryTimeout, OutageBudget: c.OutageBudget},
		Write: app.WriteConfig{Rules: c.Rules, MaxCandidates: c.MaxCandidates, Shortlist: c.Shortlist, TreeTokenBudget: c.TreeTokenBudget, PeopleDoTasks: c.PeopleDoTasks,
			Workers: c.Workers, JobTimeout: c.JobTimeout, RescueAfter: c.RescueAfter, HTTPAllow: c.HTTPAllow,
			DecisionRateLimit: c.DecisionRateLimit, OfflineAfter: c.OfflineAfter},
		Profiles: c.Profiles,
		Tracing:  c.Tracing,
		Logger:   logger,
	}
}
