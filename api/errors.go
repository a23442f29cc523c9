package api

import (
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/danielgtaylor/huma/v2"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/puddle/v2"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/domain/notice"
	"github.com/towow/towow/domain/workflow"
)

// Problem is the RFC 9457 problem+json body of every error, with the
// TOWOW_* code of the domain error (or one of this API's own request
// codes).
type Problem struct {
	huma.ErrorModel
	Code string `json:"code,omitempty" doc:"TOWOW_* error code" example:"TOWOW_DEMAND_002"`
	// Rule names the Coordinator's rule that refused a decision
	// (TOWOW_DECISION_REJECTED only).
	Rule string `json:"rule,omitempty" doc:"for TOWOW_DECISION_REJECTED: the validator that refused the decision"`
	// Canvas and Version are the workflow as it is now
	// (TOWOW_CANVAS_CONFLICT only): reload it and reapply the changes.
	Canvas  *CanvasView `json:"canvas,omitempty" doc:"for TOWOW_CANVAS_CONFLICT: the canvas as it is now, to reload and reapply the changes on"`
	Version int         `json:"version,omitempty" doc:"for TOWOW_CANVAS_CONFLICT: the workflow's current version"`
	// cause is what went wrong behind a 5xx, logged (never sent).
	cause error
}

// Codes for errors that do not come from the domain.
const (
	CodeBadRequest  = "TOWOW_REQUEST_001" // a body or parameter that does not validate
	CodeTooLarge    = "TOWOW_REQUEST_002" // a body over the size limit
	CodeNotFound    = "TOWOW_NOT_FOUND"
	CodeMethod      = "TOWOW_REQUEST_004" // a method the path does not answer (405, with Allow)
	CodeBodyTimeout = "TOWOW_REQUEST_005" // a request body not sent within the server's body timeout (408)
	CodeInternal    = "TOWOW_SYSTEM_003"  // internal error
	CodeDatabase    = "TOWOW_SYSTEM_001"  // database unavailable
)

func init() {
	// Every error Huma itself builds (validation, 404 routes, 413 bodies)
	// carries a code too, in the same problem+json shape.
	huma.NewError = func(status int, msg string, errs ...error) huma.StatusError {
		p := newProblem(status, codeForStatus(status), excerpt(msg))
		for _, err := range errs {
			var d *huma.ErrorDetail
			if errors.As(err, &d) {
				// A message is the schema's words (an enum may list many
				// values), so it may run longer than an excerpt of input.
				err = &huma.ErrorDetail{Message: cut(d.Message, 4*maxExcerpt), Location: excerpt(d.Location), Value: excerptValue(d.Value)}
			}
			p.Add(err)
		}
		return p
	}
}

// maxExcerpt bounds, in bytes, any piece of a request an error answer
// quotes back: a path, a parameter's name or value, a body that is not
// JSON. The answer says where and what is wrong, never the whole input.
const maxExcerpt = 120

// excerpt is s cut to maxExcerpt bytes at a character boundary, with "…"
// when cut.
func excerpt(s string) string { return cut(s, maxExcerpt) }

// cut is s cut to n bytes at a character boundary, with "…" when cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// excerptValue is an error detail's value with a long text cut to an
// excerpt; a long list or object (JSON that failed to validate) becomes
// the excerpt of its JSON.
func excerptValue(v any) any {
	switch v := v.(type) {
	case nil, bool, float64, int, int64:
		return v
	case string:
		return excerpt(v)
	case []byte:
		return excerpt(string(v))
	}
	b, err := json.Marshal(v)
	if err != nil || len(b) <= maxExcerpt {
		return v
	}
	return excerpt(string(b))
}

// newProblem is the problem of status with its standard title, code and
// detail.
func newProblem(status int, code, detail string) *Problem {
	return &Problem{ErrorModel: huma.ErrorModel{Status: status, Title: http.StatusText(status), Detail: detail}, Code: code}
}

// codeForStatus is the code of an error Huma builds itself, by status.
func codeForStatus(status int) string {
	switch {
	case status == http.StatusNotFound:
		return CodeNotFound
	case status == http.StatusUnauthorized:
		return CodeUnauthorized
	case status == http.StatusForbidden:
		return CodeForbidden
	case status == http.StatusRequestEntityTooLarge:
		return CodeTooLarge
	case status == http.StatusRequestTimeout:
		return CodeBodyTimeout
	case status == http.StatusServiceUnavailable:
		return CodeDatabase
	case status >= 500:
		return CodeInternal
	case status >= 400:
		return CodeBadRequest
	}
	return ""
}

// statusOf maps a domain code to its HTTP status: unknown ids are 404; a
// request that conflicts with the negotiation's state (duplicate, wrong
// round, closed phase) is 409; a request that can never be valid for this
// negotiation (not invited, malformed answer, bad demand) is 422.
func statusOf(code string) int {
	switch code {
	case negotiation.ErrNotFound.Code:
		return http.StatusNotFound
	case negotiation.ErrDuplicate.Code, negotiation.ErrOffersClosed.Code, negotiation.ErrFeedbackClosed.Code,
		negotiation.ErrWrongRound.Code, negotiation.ErrInvalidTransition.Code, negotiation.ErrAgentExists.Code, negotiation.ErrAgentState.Code,
		negotiation.ErrNothingToClarify.Code, workflow.ErrNodeNotOpen.Code, workflow.ErrCanvasConflict.Code, workflow.ErrCanvasLocked.Code:
		return http.StatusConflict
	case workflow.ErrWorkflowNotFound.Code:
		return http.StatusNotFound
	case workflow.ErrNotApprover.Code:
		return http.StatusForbidden
	case notice.ErrNoSubscription.Code, notice.ErrNoNotice.Code:
		return http.StatusNotFound
	case workflow.ErrDecisionRejected.Code, workflow.ErrNotAssignee.Code, workflow.ErrMessageInvalid.Code, workflow.ErrNewWorkflowInvalid.Code,
		negotiation.ErrForkPoint.Code, negotiation.ErrForkChange.Code, negotiation.ErrShareInvalid.Code, notice.ErrSubscriptionInvalid.Code:
		return http.StatusUnprocessableEntity
	case negotiation.ErrNotInvited.Code, negotiation.ErrNotParticipant.Code, negotiation.ErrInvalidAnswer.Code,
		negotiation.ErrDemandEmpty.Code, negotiation.ErrDemandInvalid.Code, negotiation.ErrAgentInvalid.Code, negotiation.ErrAgentNotExternal.Code:
		return http.StatusUnprocessableEntity
	}
	return http.StatusInternalServerError
}

// problem turns any error into the API's error response, in one place:
// domain errors keep their code and message; anything else is a 500 whose
// detail does not leak internals.
func problem(err error) error {
	var de *event.Error
	if errors.As(err, &de) {
		status := statusOf(de.Code)
		return newProblem(status, de.Code, de.Message)
	}
	var se huma.StatusError
	if errors.As(err, &se) {
		return se
	}
	if unavailable(err) {
		p := newProblem(http.StatusServiceUnavailable, CodeDatabase, "the database is unavailable; retry shortly")
		p.cause = err
		return huma.ErrorWithHeaders(p, http.Header{"Retry-After": {retryAfterSeconds}})
	}
	p := newProblem(http.StatusInternalServerError, CodeInternal, "internal error")
	p.cause = err
	return p
}

// retryAfterSeconds is the Retry-After of a 503 for an unavailable
// database.
const retryAfterSeconds = "5"

// unavailable reports whether err means the database cannot be reached or
// is shutting down or starting (so a retry later may succeed), rather than
// that the request failed.
func unavailable(err error) bool {
	var ce *pgconn.ConnectError
	var pe *pgconn.PgError
	var ne net.Error
	switch {
	case errors.As(err, &ce), errors.As(err, &ne), errors.Is(err, puddle.ErrClosedPool):
		return true
	case errors.As(err, &pe):
		// Class 08: connection exception; 57P01-57P03: shutdown, crash
		// shutdown, cannot connect now; 53300: too many connections.
		return strings.HasPrefix(pe.Code, "08") || pe.Code == "57P01" || pe.Code == "57P02" || pe.Code == "57P03" || pe.Code == "53300"
	}
	return pgconn.SafeToRetry(err)
}

// logServerErrors logs every 5xx answer at ERROR with its cause and the
// request id (a Huma transformer: it sees each response body).
func (s *Server) logServerErrors(ctx huma.Context, _ string, v any) (any, error) {
	if p, ok := v.(*Problem); ok && p.Status >= 500 {
		s.logger().ErrorContext(ctx.Context(), "request failed", "request_id", requestID(ctx.Context()), "method", ctx.Method(), "path", ctx.URL().Path,
			"status", p.Status, "code", p.Code, "err", p.cause)
	}
	return v, nil
}

// notFound is a 404 problem with detail as its detail.
func notFound(format string) error {
	return newProblem(http.StatusNotFound, CodeNotFound, format)
}

// newProblemAt is newProblem naming the parameter at fault.
func newProblemAt(status int, code, detail, location string) *Problem {
	p := newProblem(status, code, detail)
	p.Errors = append(p.Errors, &huma.ErrorDetail{Message: detail, Location: location})
	return p
}
