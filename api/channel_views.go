package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"

	"github.com/danielgtaylor/huma/v2"

	"github.com/towow/towow/projections"
)

// ChannelInput names one channel of the channels read model.
type ChannelInput struct {
	MinCursor
	ChannelID string `path:"channel_id" example:"collab-3f9a1c2b4d5e"`
}

// ChannelOutput is one channel.
type ChannelOutput struct {
	Body struct {
		projections.ChannelView
		SubChannels []string `json:"sub_channels" doc:"the channels this one spawned for its gaps (sub-negotiations), in the order they opened"`
	}
}

// ProposalsOutput is every proposal version of a channel.
type ProposalsOutput struct {
	Body struct {
		Proposals []projections.ProposalView `json:"proposals"`
	}
}

// OffersOutput is every offer of a channel.
type OffersOutput struct {
	Body struct {
		Offers []projections.OfferView `json:"offers"`
	}
}

// FeedbackInput names a channel and optionally one proposal version.
type FeedbackInput struct {
	ChannelInput
	ProposalVersion int `query:"proposal_version" minimum:"0" doc:"only feedback on this proposal version (0: all)"`
}

// FeedbackOutput is a channel's feedback.
type FeedbackOutput struct {
	Body struct {
		Feedback []projections.FeedbackView `json:"feedback"`
	}
}

// Participant is one invited agent and where it stands.
type Participant struct {
	AgentID      string `json:"agent_id"`
	DisplayName  string `json:"display_name,omitempty"`
	Offer        string `json:"offer,omitempty" doc:"its offer decision (absent: no offer)"`
	LastFeedback string `json:"last_feedback,omitempty" doc:"its feedback on the latest proposal version it answered"`
	InFinal      bool   `json:"in_final" doc:"part of the final proposal"`
}

// ParticipantsOutput lists a channel's invited agents.
type ParticipantsOutput struct {
	Body struct {
		Participants []Participant `json:"participants"`
	}
}

func (h *channelHandlers) registerChannelViews(api huma.API) {
	model := projections.Channels{}.Name()
	// channel loads the row (404 when unknown) after waiting for min_cursor.
	channel := func(ctx context.Context, in ChannelInput) (projections.ChannelView, error) {
		if err := waitFor(ctx, h.reads, in.MinCursor, model); err != nil {
			return projections.ChannelView{}, err
		}
		c, err := h.reads.GetChannel(ctx, in.ChannelID)
		if errors.Is(err, projections.ErrNotFound) {
			return c, notFound(fmt.Sprintf("no channel %s", in.ChannelID))
		}
		if err != nil {
			return c, problem(err)
		}
		return c, nil
	}
	op := func(id, path, summary string) huma.Operation {
		return huma.Operation{OperationID: id, Method: http.MethodGet, Path: "/api/v1/channels/{channel_id}" + path,
			Summary: summary, Tags: []string{"channels"}}
	}
	huma.Register(api, op("get-channel", "", "A channel: status, round, proposal version, invited agents, final participants, parent and child links"),
		func(ctx context.Context, in *ChannelInput) (*ChannelOutput, error) {
			c, err := channel(ctx, *in)
			if err != nil {
				return nil, err
			}
			children, err := h.reads.ChildChannels(ctx, in.ChannelID)
			if err != nil {
				return nil, problem(err)
			}
			out := &ChannelOutput{}
			out.Body.ChannelView, out.Body.SubChannels = c, children
			return out, nil
		})
	huma.Register(api, op("channel-proposals", "/proposals", "Every proposal version of a channel, with its type and adjustment summary"),
		func(ctx context.Context, in *ChannelInput) (*ProposalsOutput, error) {
			if _, err := channel(ctx, *in); err != nil {
				return nil, err
			}
			ps, err := h.reads.ChannelProposals(ctx, in.ChannelID)
			if err != nil {
				return nil, problem(err)
			}
			out := &ProposalsOutput{}
			out.Body.Proposals = ps
			return out, nil
		})
	huma.Register(api, op("channel-offers", "/offers", "Every offer of a channel, in arrival order"),
		func(ctx context.Context, in *ChannelInput) (*OffersOutput, error) {
			if _, err := channel(ctx, *in); err != nil {
				return nil, err
			}
			os, err := h.reads.ChannelOffers(ctx, in.ChannelID)
			if err != nil {
				return nil, problem(err)
			}
			out := &OffersOutput{}
			out.Body.Offers = os
			return out, nil
		})
	huma.Register(api, op("channel-feedback", "/feedback", "A channel's feedback, in arrival order"),
		func(ctx context.Context, in *FeedbackInput) (*FeedbackOutput, error) {
			if _, err := channel(ctx, in.ChannelInput); err != nil {
				return nil, err
			}
			fs, err := h.reads.ChannelFeedback(ctx, in.ChannelID, in.ProposalVersion)
			if err != nil {
				return nil, problem(err)
			}
			out := &FeedbackOutput{}
			out.Body.Feedback = fs
			return out, nil
		})
	huma.Register(api, op("channel-participants", "/participants", "The invited agents: offer, latest feedback, and whether they are in the final proposal"),
		func(ctx context.Context, in *ChannelInput) (*ParticipantsOutput, error) {
			c, err := channel(ctx, *in)
			if err != nil {
				return nil, err
			}
			offers, err := h.reads.ChannelOffers(ctx, in.ChannelID)
			if err != nil {
				return nil, problem(err)
			}
			feedback, err := h.reads.ChannelFeedback(ctx, in.ChannelID, 0)
			if err != nil {
				return nil, problem(err)
			}
			out := &ParticipantsOutput{}
			out.Body.Participants = participants(c, offers, feedback)
			return out, nil
		})
}

// participants joins the invited agents with their offers and feedback.
func participants(c projections.ChannelView, offers []projections.OfferView, feedback []projections.FeedbackView) []Participant {
	out := make([]Participant, 0, len(c.Invited))
	for _, id := range c.Invited {
		p := Participant{AgentID: id, InFinal: slices.Contains(c.Participants, id)}
		for _, o := range offers {
			if o.AgentID == id {
				p.Offer, p.DisplayName = o.Decision, o.DisplayName
			}
		}
		version := 0
		for _, f := range feedback {
			if f.AgentID == id && f.ProposalVersion >= version {
				p.LastFeedback, version = f.FeedbackType, f.ProposalVersion
			}
		}
		out = append(out, p)
	}
	return out
}
