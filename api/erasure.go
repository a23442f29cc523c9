package api

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/towow/towow/domain/erasure"
	"github.com/towow/towow/identity"
)

// erasureHandlers serve a person's right to erasure: their personal texts
// are stored sealed with keys of their own, and destroying the keys
// erases them from every event, read model and backup taken afterwards.
type erasureHandlers struct {
	commands Commands
}

// EraseUserInput names the person whose data is erased.
type EraseUserInput struct {
	UserID string `path:"user_id" maxLength:"200" doc:"yourself (the admin: anyone)"`
}

// EraseAgentInput names the agent whose profile is erased.
type EraseAgentInput struct {
	AgentID string `path:"agent_id" maxLength:"200" doc:"the calling agent itself (the admin: any agent)"`
}

// EraseUserOutput is the recorded erasure.
type EraseUserOutput struct {
	Body struct {
		erasure.Erased
		Cursor int64 `json:"cursor" doc:"the erasure's position in the log"`
	}
}

func (h *erasureHandlers) registerErasure(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID: "erase-user-data", Method: http.MethodDelete, Path: "/api/v1/users/{user_id}/data",
		Summary: "Erase a person's data: their demands, messages and everything written in their negotiations and workflows",
		Description: "Destroys the keys the person's personal texts were sealed with: from then on every read, " +
			"stream, replay, fork, comparison and the console show \"[已删除]\" in their place, and nothing can decrypt them, " +
			"backups taken afterwards included. Ids, counts, outcomes and quality figures stay, and the read models rebuild " +
			"as before. The erasure is final (what a negotiation still running writes for them later is stored erased) and is " +
			"itself recorded as an event that names only the destroyed keys. A person erases their own data; the admin anyone's.",
		Tags: []string{"people"},
	}, func(ctx context.Context, in *EraseUserInput) (*EraseUserOutput, error) {
		if p := principalOf(ctx); !p.IsAdmin() && p.ID != in.UserID {
			return nil, notFound("no user " + excerpt(in.UserID)) // another person's data is not there to see
		}
		return erasureOutput(h.commands.EraseUser(ctx, in.UserID))
	})
	huma.Register(api, huma.Operation{
		OperationID: "erase-agent-data", Method: http.MethodDelete, Path: "/api/v1/agents/{agent_id}/data",
		Summary: "Erase an agent's profile: its name, summary, capabilities, interests and availability",
		Description: "Destroys the key the agent's profile texts were sealed with: every version of its profile then shows " +
			"\"[已删除]\" in reads, the directory and new negotiations (it keeps its id, tags and city; deactivate it to stop its invitations). " +
			"What it said in other people's negotiations belongs to them and stays. An external agent erases its own profile " +
			"(with its token); the admin any agent's.",
		Tags: []string{"people"},
	}, func(ctx context.Context, in *EraseAgentInput) (*EraseUserOutput, error) {
		if p := principalOf(ctx); !p.IsAdmin() && !(p.Kind == identity.KindAgent && p.ID == in.AgentID) {
			return nil, notFound("no agent " + excerpt(in.AgentID))
		}
		return erasureOutput(h.commands.EraseAgent(ctx, in.AgentID))
	})
}

// erasureOutput answers a recorded erasure, or the error that stopped it.
func erasureOutput(rec erasure.Erased, pos int64, err error) (*EraseUserOutput, error) {
	if err != nil {
		return nil, problem(err)
	}
	out := &EraseUserOutput{}
	out.Body.Erased, out.Body.Cursor = rec, pos
	return out, nil
}
