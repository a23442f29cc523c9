package projections

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/internal/sqlcdb"
)

// Agents keeps one row per agent (profile, active, token issue time,
// presence and participation statistics) and one row per invitation, the agent's
// history.
type Agents struct{ modelMethods[Agents] }

// Model declares the agents read model.
func (Agents) Model() Model { return agentsModel }

var agentsModel = Model{
	Name: "agents",
	Types: []event.EventType{negotiation.EventAgentRegistered, negotiation.EventAgentUpdated,
		negotiation.EventAgentDeactivated, negotiation.EventAgentReactivated, negotiation.EventAgentTokenIssued,
		negotiation.EventAgentOnline, negotiation.EventAgentOffline, negotiation.EventChannelCreated, negotiation.EventChannelInviteSent, negotiation.EventOfferSubmitted, negotiation.EventProposalFeedback, negotiation.EventProposalFinalized,
		negotiation.EventNegotiationForceFinalized},
	Apply:    applyAgent,
	Reset:    (*sqlcdb.Queries).DeleteAgents,
	Rebuild:  rebuildAgents,
	Checksum: fingerprint((*sqlcdb.Queries).ChecksumAgents),
}

// applyAgent guards every write by the row's last_position (or the
// invitation's key), so applying an event twice changes nothing.
func applyAgent(ctx context.Context, q *sqlcdb.Queries, e eventstore.RecordedEvent, p event.Payload) error {
	switch x := p.(type) {
	case *negotiation.AgentRegistered:
		tags, err := jsonArray(x.Profile.Tags)
		if err != nil {
			return err
		}
		return q.InsertAgent(ctx, sqlcdb.InsertAgentParams{AgentID: x.AgentID, UserName: x.Profile.UserName,
			Mode: modeOf(x.Profile), Location: x.Profile.Location, Tags: tags, Payload: e.Payload,
			RecordedAt: e.RecordedAt, Position: e.Position})
	case *negotiation.AgentUpdated:
		tags, err := jsonArray(x.Profile.Tags)
		if err != nil {
			return err
		}
		return q.UpdateAgentProfile(ctx, sqlcdb.UpdateAgentProfileParams{AgentID: x.AgentID, UserName: x.Profile.UserName,
			Mode: modeOf(x.Profile), Location: x.Profile.Location, Tags: tags, Payload: e.Payload,
			RecordedAt: e.RecordedAt, Position: e.Position})
	case *negotiation.AgentDeactivated:
		return q.SetAgentActive(ctx, sqlcdb.SetAgentActiveParams{AgentID: x.AgentID, Active: false,
			RecordedAt: e.RecordedAt, Position: e.Position})
	case *negotiation.AgentReactivated:
		return q.SetAgentActive(ctx, sqlcdb.SetAgentActiveParams{AgentID: x.AgentID, Active: true,
			RecordedAt: e.RecordedAt, Position: e.Position})
	case *negotiation.AgentTokenIssued:
		return q.SetAgentToken(ctx, sqlcdb.SetAgentTokenParams{AgentID: x.AgentID, RecordedAt: e.RecordedAt, Position: e.Position})
	case *negotiation.AgentOnline:
		return q.SetAgentOnline(ctx, sqlcdb.SetAgentOnlineParams{AgentID: x.AgentID, Online: true, RecordedAt: e.RecordedAt, Position: e.Position})
	case *negotiation.AgentOffline:
		return q.SetAgentOnline(ctx, sqlcdb.SetAgentOnlineParams{AgentID: x.AgentID, Online: false, RecordedAt: e.RecordedAt, Position: e.Position})
	case *negotiation.ChannelCreated:
		return q.InsertInvitations(ctx, sqlcdb.InsertInvitationsParams{AgentIds: x.InvitedAgents, Position: e.Position,
			ChannelID: x.ChannelID, DemandID: x.DemandID, RootDemandID: cmp.Or(x.RootDemandID, e.Metadata.CorrelationID, x.DemandID),
			RecordedAt: e.RecordedAt})
	case *negotiation.ChannelInviteSent: // a candidate added after the channel opened (a fork's add_agent)
		if x.Broadcast {
			return nil // a created candidate's invitation: counted from towow.channel.created
		}
		return q.InsertInvitations(ctx, sqlcdb.InsertInvitationsParams{AgentIds: []string{x.AgentID}, Position: e.Position,
			ChannelID: x.ChannelID, DemandID: x.DemandID, RootDemandID: cmp.Or(e.Metadata.CorrelationID, x.DemandID),
			RecordedAt: e.RecordedAt})
	case *negotiation.OfferSubmitted:
		return q.CountOffer(ctx, sqlcdb.CountOfferParams{AgentID: x.AgentID, Decision: string(x.Decision), Position: e.Position})
	case *negotiation.ProposalFeedback:
		return q.CountFeedback(ctx, sqlcdb.CountFeedbackParams{AgentID: x.AgentID, FeedbackType: string(x.FeedbackType),
			TimedOut: e.Metadata.Actor == event.ActorSystem, Position: e.Position})
	case *negotiation.ProposalFinalized:
		return q.CountFinalParticipations(ctx, sqlcdb.CountFinalParticipationsParams{AgentIds: x.Participants, Position: e.Position})
	case *negotiation.NegotiationForceFinalized:
		return q.CountFinalParticipations(ctx, sqlcdb.CountFinalParticipationsParams{
			AgentIds: append(slices.Clone(x.ConfirmedParticipants), x.OptionalParticipants...), Position: e.Position})
	}
	return nil
}

// rebuildAgents folds the two tables, one statement each
// (queries/agents.sql RebuildAgentInvitations, RebuildAgents).
func rebuildAgents(q *sqlcdb.Queries, ctx context.Context, head int64) error {
	if err := q.RebuildAgentInvitations(ctx, head); err != nil {
		return fmt.Errorf("rebuild agent invitations: %w", err)
	}
	if err := q.RebuildAgents(ctx, head); err != nil {
		return fmt.Errorf("rebuild agents: %w", err)
	}
	return nil
}

func modeOf(p negotiation.AgentProfile) string {
	if p.IsExternal() {
		return string(negotiation.AgentModeExternal)
	}
	return string(negotiation.AgentModeTwin)
}

// AgentStats counts an agent's participation.
type AgentStats struct {
	Invitations         int        `json:"invitations" doc:"channels the agent was invited to"`
	OffersParticipate   int        `json:"offers_participate"`
	OffersConditional   int        `json:"offers_conditional"`
	OffersDecline       int        `json:"offers_decline"`
	FeedbackAccept      int        `json:"feedback_accept"`
	FeedbackNegotiate   int        `json:"feedback_negotiate"`
	FeedbackWithdraw    int        `json:"feedback_withdraw"`
	FeedbackTimedOut    int        `json:"feedback_timed_out" doc:"feedback the round's timeout settled (counted as accept)"`
	FinalParticipations int        `json:"final_participations" doc:"times the agent was in a final proposal"`
	LastInvitedAt       *time.Time `json:"last_invited_at,omitempty"`
}

// AgentView is one row of the agents read model.
type AgentView struct {
	AgentID       string                   `json:"agent_id"`
	Mode          string                   `json:"mode" enum:"twin,external"`
	Active        bool                     `json:"active"`
	Profile       negotiation.AgentProfile `json:"profile"`
	TokenIssuedAt *time.Time               `json:"token_issued_at,omitempty" doc:"external agents: when the current API token was issued"`
	Online        bool                     `json:"online" doc:"external agents: online since a request made with its token, until silent for TOWOW_AGENT_OFFLINE_AFTER (twins: always false)"`
	LastOnlineAt  *time.Time               `json:"last_online_at,omitempty" doc:"external agents: when it last came online (towow.agent.online)"`
	LastOfflineAt *time.Time               `json:"last_offline_at,omitempty" doc:"external agents: when it last went offline (towow.agent.offline)"`
	Stats         AgentStats               `json:"stats"`
	RegisteredAt  time.Time                `json:"registered_at"`
	UpdatedAt     time.Time                `json:"updated_at"`
	LastPosition  int64                    `json:"last_position"`
}

func agentView(a sqlcdb.Agent) (AgentView, error) {
	v := AgentView{AgentID: a.AgentID, Mode: a.Mode, Active: a.Active, TokenIssuedAt: a.TokenIssuedAt,
		Online: a.Online, LastOnlineAt: a.LastOnlineAt, LastOfflineAt: a.LastOfflineAt,
		RegisteredAt: a.RegisteredAt, UpdatedAt: a.UpdatedAt, LastPosition: a.LastPosition,
		Stats: AgentStats{Invitations: int(a.Invitations), OffersParticipate: int(a.OffersParticipate),
			OffersConditional: int(a.OffersConditional), OffersDecline: int(a.OffersDecline),
			FeedbackAccept: int(a.FeedbackAccept), FeedbackNegotiate: int(a.FeedbackNegotiate),
			FeedbackWithdraw: int(a.FeedbackWithdraw), FeedbackTimedOut: int(a.FeedbackTimedOut),
			FinalParticipations: int(a.FinalParticipations), LastInvitedAt: a.LastInvitedAt}}
	if err := json.Unmarshal(a.Profile, &v.Profile); err != nil {
		return v, fmt.Errorf("agent %q profile: %w", a.AgentID, err)
	}
	return v, nil
}

// GetAgent returns one agent's row, or ErrNotFound.
func GetAgent(ctx context.Context, db DB, agentID string) (AgentView, error) {
	a, err := sqlcdb.New(db).GetAgent(ctx, agentID)
	if errors.Is(err, pgx.ErrNoRows) {
		return AgentView{}, fmt.Errorf("agent %q: %w", agentID, ErrNotFound)
	}
	if err != nil {
		return AgentView{}, fmt.Errorf("agent %q: %w", agentID, err)
	}
	return agentView(a)
}

// AgentFilter selects agents for ListAgents; zero fields do not filter.
type AgentFilter struct {
	Active   *bool
	Mode     string
	Tag      string
	Location string
	Query    string // substring of the id, name or summary (case-insensitive)
	AfterID  string // the page cursor: the last agent id of the previous page
	Limit    int
}

// ListAgents returns agents ordered by id.
func ListAgents(ctx context.Context, db DB, f AgentFilter) ([]AgentView, error) {
	p := sqlcdb.ListAgentsParams{AfterID: f.AfterID, Mode: text(f.Mode), Tag: text(f.Tag), Location: text(f.Location),
		Q: text(f.Query), MaxCount: int32(f.Limit)}
	if f.Active != nil {
		p.Active = pgtype.Bool{Bool: *f.Active, Valid: true}
	}
	rows, err := sqlcdb.New(db).ListAgents(ctx, p)
	if err != nil {
		return nil, fmt.Errorf("list agents: %w", err)
	}
	out := make([]AgentView, len(rows))
	for i, r := range rows {
		if out[i], err = agentView(r); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// searchAgents is ListAgents for a deployment whose names and summaries
// are sealed: SQL cannot match them, so the agents the other filters
// select are read in pages and matched once revealed (a directory of
// 10,000 agents is 10,000 small decryptions, a few milliseconds).
func searchAgents(ctx context.Context, db DB, f AgentFilter, reveal func(context.Context, string) (string, error)) ([]AgentView, error) {
	q := strings.ToLower(f.Query)
	matches := func(texts ...string) (bool, error) {
		for _, t := range texts {
			plain, err := reveal(ctx, t)
			if err != nil {
				return false, err
			}
			if strings.Contains(strings.ToLower(plain), q) {
				return true, nil
			}
		}
		return false, nil
	}
	page := f
	page.Query, page.Limit = "", 500
	var out []AgentView
	for {
		rows, err := ListAgents(ctx, db, page)
		if err != nil {
			return nil, err
		}
		for _, a := range rows {
			ok, err := matches(a.AgentID, a.Profile.UserName, a.Profile.ProfileSummary)
			if err != nil {
				return nil, fmt.Errorf("search agents: %w", err)
			}
			if ok {
				if out = append(out, a); len(out) == f.Limit {
					return out, nil
				}
			}
		}
		if len(rows) < page.Limit {
			return out, nil
		}
		page.AfterID = rows[len(rows)-1].AgentID
	}
}

// Participation is one negotiation an agent was invited to: the channel,
// its demand and outcome, what the agent offered and what it answered to
// each proposal.
type Participation struct {
	ChannelID    string         `json:"channel_id"`
	DemandID     string         `json:"demand_id"`
	RootDemandID string         `json:"root_demand_id"`
	Demand       string         `json:"demand,omitempty" doc:"the demand's text"`
	Depth        int            `json:"depth"`
	Status       string         `json:"status" enum:"created,broadcasting,collecting,aggregating,proposal_sent,negotiating,finalized,force_finalized,failed" doc:"the channel's status now"`
	Rounds       int            `json:"rounds,omitempty" doc:"rounds taken, once finalized"`
	InFinal      bool           `json:"in_final" doc:"the agent is in the final proposal"`
	InvitedAt    time.Time      `json:"invited_at"`
	Offer        *OfferView     `json:"offer,omitempty" doc:"absent: the agent did not offer (yet)"`
	Feedback     []FeedbackView `json:"feedback" doc:"its answers, by proposal version"`
	Cursor       int64          `json:"cursor" doc:"position of the channel's creation (the page cursor)"`
}

// AgentHistory returns the negotiations an agent was invited to, newest
// first, before the given cursor (0: from the newest).
func AgentHistory(ctx context.Context, db DB, agentID string, before int64, limit int) ([]Participation, error) {
	q := sqlcdb.New(db)
	rows, err := q.AgentHistory(ctx, sqlcdb.AgentHistoryParams{AgentID: agentID, BeforePosition: before, MaxCount: int32(limit)})
	if err != nil {
		return nil, fmt.Errorf("history of %q: %w", agentID, err)
	}
	out := make([]Participation, len(rows))
	byChannel := map[string]*Participation{}
	ids := make([]string, len(rows))
	for i, r := range rows {
		p := Participation{ChannelID: r.ChannelID, DemandID: r.DemandID, RootDemandID: r.RootDemandID,
			Demand: r.RawInput.String, Depth: int(r.Depth.Int32), Status: r.Status.String, Rounds: int(r.RoundsTaken.Int32),
			InvitedAt: r.InvitedAt, Cursor: r.Position, Feedback: []FeedbackView{}}
		final, err := columnList[string](r.Participants, "participants")
		if err != nil {
			return nil, fmt.Errorf("history of %q: %w", agentID, err)
		}
		p.InFinal = slices.Contains(final, agentID)
		if r.Decision.Valid {
			conditions, err := columnList[string](r.Conditions, "conditions")
			if err != nil {
				return nil, fmt.Errorf("history of %q: %w", agentID, err)
			}
			p.Offer = &OfferView{AgentID: agentID, Decision: r.Decision.String, Contribution: r.Contribution.String,
				Conditions: conditions, Reasoning: r.Reasoning.String, DeclineReason: r.DeclineReason.String,
				RecordedAt: *r.OfferedAt}
		}
		out[i], ids[i] = p, r.ChannelID
		byChannel[r.ChannelID] = &out[i]
	}
	fbs, err := q.AgentFeedback(ctx, sqlcdb.AgentFeedbackParams{AgentID: agentID, ChannelIds: ids})
	if err != nil {
		return nil, fmt.Errorf("feedback of %q: %w", agentID, err)
	}
	for _, f := range fbs {
		p := byChannel[f.ChannelID]
		concerns, err := columnList[string](f.Concerns, "concerns")
		if err != nil {
			return nil, fmt.Errorf("feedback of %q: %w", agentID, err)
		}
		p.Feedback = append(p.Feedback, FeedbackView{AgentID: f.AgentID, ProposalVersion: int(f.ProposalVersion),
			Round: int(f.Round), FeedbackType: f.FeedbackType, Reasoning: f.Reasoning, AdjustmentRequest: f.AdjustmentRequest,
			Concerns: concerns, Actor: f.Actor, Cursor: f.Position, RecordedAt: f.RecordedAt})
	}
	return out, nil
}
