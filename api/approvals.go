package api

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/towow/towow/domain/workflow"
	"github.com/towow/towow/projections"
)

// PendingApproval is an approval step waiting for the caller.
type PendingApproval struct {
	WorkflowID string                `json:"workflow_id"`
	DemandID   string                `json:"demand_id" doc:"the negotiation whose agreement the workflow runs (empty for a workflow started from a conversation)"`
	Title      string                `json:"workflow_title" doc:"the workflow's title"`
	Node       workflow.WorkflowNode `json:"node" doc:"the approval step: its title and description say what is to be approved"`
}

// PendingApprovalsInput is the read-your-writes cursor.
type PendingApprovalsInput struct {
	MinCursor
}

// PendingApprovalsOutput lists the caller's waiting approvals.
type PendingApprovalsOutput struct {
	Body struct {
		Approvals []PendingApproval `json:"approvals" doc:"by workflow, each workflow's in step order"`
	}
}

func (h *workflowHandlers) registerApprovals(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID: "pending-approvals",
		Method:      http.MethodGet,
		Path:        "/api/v1/approvals",
		Summary:     "The approval steps waiting for the signed-in person (the approver they name, else the negotiation's owner)",
		Description: "Answer one with POST /api/v1/workflows/{workflow_id}/nodes/{node_id}/approval.",
		Tags:        []string{"workflows"},
	}, func(ctx context.Context, in *PendingApprovalsInput) (*PendingApprovalsOutput, error) {
		reads := h.workflows.reads
		if err := waitFor(ctx, reads, in.MinCursor, projections.Workflows{}.Name()); err != nil {
			return nil, err
		}
		out := &PendingApprovalsOutput{}
		out.Body.Approvals = []PendingApproval{}
		p := principalOf(ctx)
		if !p.IsUser() { // the operator approves for no one
			return out, nil
		}
		nodes, err := reads.PendingApprovals(ctx, p.ID)
		if err != nil {
			return nil, problem(err)
		}
		for _, n := range nodes {
			out.Body.Approvals = append(out.Body.Approvals, PendingApproval{WorkflowID: n.WorkflowID, DemandID: n.DemandID, Title: n.WorkflowTitle,
				Node: n.Node})
		}
		return out, nil
	})
}
