package api

import (
	"context"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/notice"
	"github.com/towow/towow/eventstore"
)

// noticeHandlers serve a recipient's notices (a person's, or an external
// agent's) and the webhooks that carry them out. Everything here is the
// caller's own: their inbox stream and their webhooks stream.
type noticeHandlers struct {
	commands Commands
	events   EventReader
	streams  *streamer
}

// Notice is one notice as the API shows it.
type Notice struct {
	notice.Posted
	Cursor   int64     `json:"cursor" doc:"its position in the log: resume the stream after it"`
	PostedAt time.Time `json:"posted_at" doc:"when it was posted (the stream's frames carry it as timestamp)"`
}

// NoticesInput pages the inbox.
type NoticesInput struct {
	Limit int `query:"limit" minimum:"1" maximum:"200" default:"50"`
}

// NoticesOutput is the newest notices.
type NoticesOutput struct {
	Body struct {
		Notices []Notice `json:"notices" doc:"newest first"`
	}
}

// NoticeStreamInput resumes the inbox's live stream.
type NoticeStreamInput struct {
	StreamInput
}

// WebhookInput subscribes a URL.
type WebhookInput struct {
	Body struct {
		URL   string        `json:"url" maxLength:"2000" doc:"where the notices are POSTed (its host must be on the server's allow list, TOWOW_HTTP_ALLOW)"`
		Kinds []notice.Kind `json:"kinds,omitempty" maxItems:"8" doc:"the kinds wanted (none: all): negotiation.agreed, negotiation.failed, approval.waiting, workflow.completed, workflow.failed, agent.invited, proposal.review, plan.final"`
	}
}

// WebhookCreated answers a subscription, with its secret shown this once.
type WebhookCreated struct {
	Body struct {
		SubscriptionID string `json:"subscription_id"`
		Secret         string `json:"secret" doc:"the Standard Webhooks signing secret (whsec_…): verify webhook-signature with it; shown this once"`
		Cursor         int64  `json:"cursor"`
	}
}

// WebhookView is a subscription with its delivery log.
type WebhookView struct {
	SubscriptionID string             `json:"subscription_id"`
	URL            string             `json:"url"`
	Kinds          []notice.Kind      `json:"kinds"`
	Deliveries     []notice.Delivered `json:"deliveries" doc:"every attempt, newest first (at most 50)"`
}

// WebhooksOutput lists the caller's subscriptions.
type WebhooksOutput struct {
	Body struct {
		Webhooks []WebhookView `json:"webhooks"`
	}
}

// WebhookIDInput names one of the caller's subscriptions.
type WebhookIDInput struct {
	SubscriptionID string `path:"subscription_id" maxLength:"40"`
}

// RedeliverInput names a notice to deliver again.
type RedeliverInput struct {
	SubscriptionID string `path:"subscription_id" maxLength:"40"`
	Body           struct {
		NoticeID string `json:"notice_id" maxLength:"80"`
	}
}

// CursorOutput answers a write with its position.
type CursorOutput struct {
	Body struct {
		Cursor int64 `json:"cursor"`
	}
}

func (h *noticeHandlers) registerNotices(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID: "list-notices", Method: http.MethodGet, Path: "/api/v1/notices",
		Summary: "The caller's notices, newest first: what needs them, and what happened to what they own",
		Tags:    []string{"notices"},
	}, func(ctx context.Context, in *NoticesInput) (*NoticesOutput, error) {
		inbox := notice.InboxStream(principalOf(ctx).Actor())
		v, err := h.events.StreamVersion(ctx, inbox)
		if err != nil {
			return nil, problem(err)
		}
		evs, err := h.events.ReadStream(ctx, inbox, max(v-int64(in.Limit)+1, 0), in.Limit)
		if err != nil {
			return nil, problem(err)
		}
		out := &NoticesOutput{}
		out.Body.Notices = []Notice{}
		for i := len(evs) - 1; i >= 0; i-- {
			if p, err := evs[i].Decode(); err == nil {
				if n, ok := p.(*notice.Posted); ok {
					out.Body.Notices = append(out.Body.Notices, Notice{Posted: *n, Cursor: evs[i].Position, PostedAt: evs[i].RecordedAt})
				}
			}
		}
		return out, nil
	})
	huma.Register(api, huma.Operation{
		OperationID: "notice-stream", Responses: sseResponses(api, eventFrame), Method: http.MethodGet, Path: "/api/v1/notices/stream",
		Summary: "The caller's notices live (server-sent events, each a towow.notice.posted event; resume with Last-Event-ID)",
		Tags:    []string{"notices", "events"},
	}, func(ctx context.Context, in *NoticeStreamInput) (*huma.StreamResponse, error) {
		after, err := in.after()
		if err != nil {
			return nil, err
		}
		return h.streams.stream(after, eventstore.Filter{StreamID: notice.InboxStream(principalOf(ctx).Actor())}), nil
	})
	huma.Register(api, huma.Operation{
		OperationID: "create-webhook", Method: http.MethodPost, Path: "/api/v1/webhooks", DefaultStatus: http.StatusCreated,
		Summary:     "POST the caller's notices to a URL, signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature)",
		Description: "Each notice is delivered by a job retried with backoff (at most 8 attempts); every attempt is in the delivery log. Not http(s), a host off the allow list, an unknown kind, the same URL twice or more than 10 subscriptions: 422 TOWOW_WEBHOOK_001.",
		Tags:        []string{"notices"}, MaxBodyBytes: 8 << 10,
	}, func(ctx context.Context, in *WebhookInput) (*WebhookCreated, error) {
		id, secret, pos, err := h.commands.Subscribe(ctx, principalOf(ctx).Actor(), in.Body.URL, in.Body.Kinds)
		if err != nil {
			return nil, problem(err)
		}
		out := &WebhookCreated{}
		out.Body.SubscriptionID, out.Body.Secret, out.Body.Cursor = id, secret, pos
		return out, nil
	})
	huma.Register(api, huma.Operation{
		OperationID: "list-webhooks", Method: http.MethodGet, Path: "/api/v1/webhooks",
		Summary: "The caller's webhook subscriptions, each with its delivery log", Tags: []string{"notices"},
	}, func(ctx context.Context, _ *struct{}) (*WebhooksOutput, error) {
		var hooks notice.Webhooks
		logs := map[string][]notice.Delivered{}
		if _, err := h.events.Fold(ctx, notice.WebhooksStream(principalOf(ctx).Actor()), func(p event.Payload) {
			hooks.Apply(p)
			if d, ok := p.(*notice.Delivered); ok {
				logs[d.SubscriptionID] = append([]notice.Delivered{*d}, logs[d.SubscriptionID]...)
			}
		}); err != nil {
			return nil, problem(err)
		}
		out := &WebhooksOutput{}
		out.Body.Webhooks = []WebhookView{}
		for _, s := range hooks.Subs {
			d := logs[s.ID]
			out.Body.Webhooks = append(out.Body.Webhooks, WebhookView{SubscriptionID: s.ID, URL: s.URL, Kinds: append([]notice.Kind{}, s.Kinds...),
				Deliveries: append([]notice.Delivered{}, d[:min(len(d), 50)]...)})
		}
		return out, nil
	})
	huma.Register(api, huma.Operation{
		OperationID: "delete-webhook", Method: http.MethodDelete, Path: "/api/v1/webhooks/{subscription_id}",
		Summary: "End one of the caller's webhook subscriptions", Tags: []string{"notices"},
	}, func(ctx context.Context, in *WebhookIDInput) (*CursorOutput, error) {
		pos, err := h.commands.Unsubscribe(ctx, principalOf(ctx).Actor(), in.SubscriptionID)
		if err != nil {
			return nil, problem(err)
		}
		out := &CursorOutput{}
		out.Body.Cursor = pos
		return out, nil
	})
	huma.Register(api, huma.Operation{
		OperationID: "redeliver-webhook", Method: http.MethodPost, Path: "/api/v1/webhooks/{subscription_id}/redeliver",
		DefaultStatus: http.StatusAccepted, MaxBodyBytes: 4 << 10,
		Summary: "Deliver one of the caller's notices to a subscription again (a new job, with its own attempts)",
		Tags:    []string{"notices"},
	}, func(ctx context.Context, in *RedeliverInput) (*struct{}, error) {
		if err := h.commands.Redeliver(ctx, principalOf(ctx).Actor(), in.SubscriptionID, in.Body.NoticeID); err != nil {
			return nil, problem(err)
		}
		return nil, nil
	})
}
