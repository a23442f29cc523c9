package mcpserver

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// client calls ToWow's REST API: the one place where input is validated,
// tokens are checked and errors get their TOWOW_* code.
type client struct {
	base string
	http *http.Client
	// token is sent when a tool brings no token of its own (an external
	// agent's tools do) and the request has no caller (over HTTP it has:
	// callerToken).
	token string
}

// APIError is a refusal of the REST API (its RFC 9457 problem+json), as
// a tool reports it: the TOWOW_* code, the status and the detail.
type APIError struct {
	// Status is the HTTP status of the answer.
	Status int
	// Code is the problem's TOWOW_* code.
	Code string
	// Detail is the problem's detail, with the location and message of
	// each invalid field appended.
	Detail string
}

// Error reads "TOWOW_AUTH_001 (401): detail".
func (e *APIError) Error() string {
	return fmt.Sprintf("%s (%d): %s", e.Code, e.Status, e.Detail)
}

// problem is the part of a problem+json body a tool reports.
type problem struct {
	Status int    `json:"status"`
	Title  string `json:"title"`
	Code   string `json:"code"`
	Detail string `json:"detail"`
	Rule   string `json:"rule"`
	Errors []struct {
		Message  string `json:"message"`
		Location string `json:"location"`
	} `json:"errors"`
}

// call sends a request to the API with a bearer token and a JSON body, and
// decodes a 2xx answer into out (unless nil). Any other answer is an
// *APIError. The token is the tool's own (an agent_token) if given, else
// the MCP request's caller's (callerToken), else the configured one.
func (c *client) call(ctx context.Context, method, path string, query url.Values, token string, body, out any) error {
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("encode %s %s: %w", method, path, err)
		}
		rd = bytes.NewReader(raw)
	}
	u := c.base + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token == "" {
		token = cmp.Or(callerToken(ctx), c.token)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 32<<20))
	if err != nil {
		return fmt.Errorf("read %s %s: %w", method, path, err)
	}
	if resp.StatusCode/100 != 2 {
		return apiError(resp.StatusCode, raw)
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("decode %s %s: %w", method, path, err)
	}
	return nil
}

// apiError turns an error answer into an *APIError (an answer that is not
// problem+json keeps its status and the start of its body).
func apiError(status int, raw []byte) error {
	var p problem
	if err := json.Unmarshal(raw, &p); err != nil || p.Code == "" {
		text := strings.TrimSpace(string(raw))
		if len(text) > 200 {
			text = text[:200] + "…"
		}
		return &APIError{Status: status, Code: "HTTP_" + fmt.Sprint(status), Detail: cmp.Or(text, http.StatusText(status))}
	}
	detail := cmp.Or(p.Detail, p.Title)
	if p.Rule != "" && !strings.Contains(detail, "rule "+p.Rule) {
		detail += " (rule " + p.Rule + ")"
	}
	for _, e := range p.Errors {
		if e.Message != "" && e.Location != "" && strings.Contains(detail, e.Message) { // the detail says it already: where
			detail += "; at " + e.Location
			continue
		}
		detail += "; " + strings.TrimSpace(e.Location+": "+e.Message)
	}
	return &APIError{Status: status, Code: p.Code, Detail: detail}
}

// notFound reports whether err is the API's 404.
func notFound(err error) bool {
	var ae *APIError
	return errors.As(err, &ae) && ae.Status == http.StatusNotFound
}
