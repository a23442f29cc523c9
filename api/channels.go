package api

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
)

// channelHandlers serve the channels: time travel folded from the log,
// and the channels read model's reads.
type channelHandlers struct {
	events EventReader
	reads  ReadModels
}

// ChannelStateInput selects the point in time: a cursor (at), a time
// (at_time), or, with neither, now.
type ChannelStateInput struct {
	ChannelID string    `path:"channel_id" example:"collab-3f9a1c2b4d5e"`
	At        int64     `query:"at" minimum:"0" doc:"fold the channel's events up to this cursor (inclusive)"`
	AtTime    time.Time `query:"at_time" doc:"fold the channel's events recorded up to this time (RFC 3339)"`
}

// ChannelState is a channel as it was at a point of its history.
type ChannelState struct {
	ChannelID       string                    `json:"channel_id"`
	DemandID        string                    `json:"demand_id"`
	ParentChannelID string                    `json:"parent_channel_id,omitempty"`
	Depth           int                       `json:"depth"`
	Status          negotiation.ChannelStatus `json:"status" enum:"created,broadcasting,collecting,aggregating,proposal_sent,negotiating,finalized,force_finalized,failed"`
	Round           int                       `json:"round"`
	MaxRounds       int                       `json:"max_rounds"`
	Invited         []string                  `json:"invited"`
	Offers          map[string]string         `json:"offers" doc:"agent id → decision"`
	Participants    []string                  `json:"participants" doc:"agents still in the negotiation"`
	Withdrawn       []string                  `json:"withdrawn,omitempty"`
	Proposal        *negotiation.Proposal     `json:"proposal,omitempty" doc:"the proposal under review at that point"`
	FinalProposal   *negotiation.Proposal     `json:"final_proposal,omitempty"`
	Completed       bool                      `json:"completed"`
	Cursor          int64                     `json:"cursor" doc:"the last event folded"`
	EventsFolded    int                       `json:"events_folded"`
}

// ChannelStateOutput is the body of GET /api/v1/channels/{id}/state.
type ChannelStateOutput struct {
	Body ChannelState
}

func (h *channelHandlers) registerChannels(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID: "channel-state",
		Method:      http.MethodGet,
		Path:        "/api/v1/channels/{channel_id}/state",
		Summary:     "Time travel: a channel's state folded from its events up to a cursor or a time",
		Tags:        []string{"channels"},
	}, func(ctx context.Context, in *ChannelStateInput) (*ChannelStateOutput, error) {
		evs, err := h.events.ReadStream(ctx, negotiation.ChannelStream(in.ChannelID), 1, eventstore.MaxReadLimit)
		if err != nil {
			return nil, problem(err)
		}
		if len(evs) == 0 {
			return nil, notFound(fmt.Sprintf("no channel %s", in.ChannelID))
		}
		c := &negotiation.Channel{}
		out := &ChannelStateOutput{}
		for _, e := range evs {
			if (in.At > 0 && e.Position > in.At) || (!in.AtTime.IsZero() && e.RecordedAt.After(in.AtTime)) {
				break
			}
			p, err := e.Decode()
			if err != nil {
				return nil, problem(err)
			}
			c.Apply(p)
			out.Body.Cursor, out.Body.EventsFolded = e.Position, out.Body.EventsFolded+1
		}
		if out.Body.EventsFolded == 0 {
			return nil, notFound(fmt.Sprintf("channel %s did not exist yet at that point", in.ChannelID))
		}
		b := &out.Body
		b.ChannelID, b.DemandID, b.ParentChannelID, b.Depth = c.ID, c.DemandID, c.ParentChannelID, c.Depth
		b.Status, b.Round, b.MaxRounds, b.Completed = c.Status, c.Round, c.Rules.MaxRounds, c.Completed
		b.Proposal, b.FinalProposal = c.Proposal, c.FinalProposal
		b.Offers = map[string]string{}
		for _, cand := range c.Candidates {
			b.Invited = append(b.Invited, cand.AgentID)
		}
		for id, o := range c.Offers {
			b.Offers[id] = string(o.Decision)
		}
		b.Participants = c.ActiveParticipants()
		for id := range c.Withdrawn {
			b.Withdrawn = append(b.Withdrawn, id)
		}
		return out, nil
	})
}
