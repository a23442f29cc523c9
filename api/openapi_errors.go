package api

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/danielgtaylor/huma/v2"
)

// conflicting are the operations that can answer 409: the request
// conflicts with the state of the agent, the negotiation or the workflow
// (an agent that exists or is deactivated, a second answer, a closed
// phase, a wrong round, a node not running, a stale or locked canvas).
var conflicting = map[string]bool{
	"create-agent": true, "update-agent": true, "deactivate-agent": true, "reactivate-agent": true,
	"issue-agent-token": true, "submit-offer": true, "submit-feedback": true, "clarify-demand": true,
	"report-task": true, "approve-node": true, "change-canvas": true,
}

// documentErrors completes the OpenAPI document, in one place: every
// operation lists every status it can answer, each with the problem schema
// — 400 (the edge refuses bad text in any request), 500 and 503 (the
// database unreachable) for all; 422 where there are parameters or a
// body; 413 where there is a body; 404 where the path names something;
// 409 for the conflicting operations; 401, 403 and 429 (the per-user
// limits) for every operation that takes credentials, and 404 where its
// access rule names an owned resource. Open operations say `security: []` (no
// credentials); the document names its server.
func documentErrors(oapi *huma.OpenAPI) {
	oapi.Servers = []*huma.Server{{URL: "/", Description: "this server"}}
	for path, item := range oapi.Paths {
		for _, op := range []*huma.Operation{item.Get, item.Put, item.Post, item.Delete, item.Patch} {
			if op == nil {
				continue
			}
			if op.Security == nil { // an empty list is written out; nil is not
				op.Security = []map[string][]string{}
			}
			statuses := []int{http.StatusBadRequest, http.StatusInternalServerError, http.StatusServiceUnavailable}
			if len(op.Parameters) > 0 || op.RequestBody != nil {
				statuses = append(statuses, http.StatusUnprocessableEntity)
			}
			if op.RequestBody != nil {
				statuses = append(statuses, http.StatusRequestEntityTooLarge)
			}
			if strings.Contains(path, "{") {
				statuses = append(statuses, http.StatusNotFound)
			}
			if conflicting[op.OperationID] {
				statuses = append(statuses, http.StatusConflict)
			}
			if len(op.Security) > 0 { // credentials: refused (401, 403), and limited per principal (429)
				statuses = append(statuses, http.StatusUnauthorized, http.StatusForbidden, http.StatusTooManyRequests)
			}
			if accessRules[op.OperationID].res != noResource {
				statuses = append(statuses, http.StatusNotFound)
			}
			if op.Responses == nil {
				op.Responses = map[string]*huma.Response{}
			}
			for _, s := range statuses {
				if key := strconv.Itoa(s); op.Responses[key] == nil {
					op.Responses[key] = &huma.Response{Description: http.StatusText(s),
						Content: map[string]*huma.MediaType{"application/problem+json": {Schema: &huma.Schema{Ref: "#/components/schemas/Problem"}}}}
				}
			}
		}
	}
}
