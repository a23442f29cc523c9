package notice

import "github.com/towow/towow/domain/event"

// The notices a person or an external agent is sent, and the webhook
// subscriptions that carry them out of ToWow.
const (
	// EventNoticePosted: something needs the recipient, or happened to
	// what they own; on the recipient's inbox stream.
	EventNoticePosted event.EventType = "towow.notice.posted"
	// EventWebhookSubscribed: a user (or agent) asked for their notices of
	// some kinds to be POSTed to a URL.
	EventWebhookSubscribed event.EventType = "towow.webhook.subscribed"
	// EventWebhookUnsubscribed: the subscription ended.
	EventWebhookUnsubscribed event.EventType = "towow.webhook.unsubscribed"
	// EventWebhookDelivered: one delivery attempt of a notice to a
	// subscription, and how it went (the delivery log).
	EventWebhookDelivered event.EventType = "towow.webhook.delivered"
)

// Posted is the payload of [EventNoticePosted]: what happened, for whom,
// in words for people, with the ids to open it.
type Posted struct {
	NoticeID   string `json:"notice_id"`
	Recipient  string `json:"recipient"` // "user:<id>" or "agent:<id>"
	Kind       Kind   `json:"kind" enum:"negotiation.agreed,negotiation.failed,approval.waiting,workflow.completed,workflow.failed,agent.invited,proposal.review,plan.final"`
	Title      string `json:"title" personal:"true"`
	DemandID   string `json:"demand_id,omitempty"`
	ChannelID  string `json:"channel_id,omitempty"`
	WorkflowID string `json:"workflow_id,omitempty"`
	NodeID     string `json:"node_id,omitempty"`
	// Tree is the root demand id of the negotiation tree the notice is
	// about (a person's own workflow: its workflow id): its title quotes
	// the tree's texts, so it is sealed under the tree's key.
	Tree string `json:"tree,omitempty"`
}

// EventType implements [event.Payload].
func (*Posted) EventType() event.EventType { return EventNoticePosted }

// PersonalSubject implements [event.Subjected]: the tree's, else the
// recipient's.
func (p *Posted) PersonalSubject() string {
	if p.Tree != "" {
		return event.TreeSubject(p.Tree)
	}
	return event.PrincipalSubject(p.Recipient)
}

// Subscribed is the payload of [EventWebhookSubscribed]. The signing
// secret is not recorded: it is derived from the server's key and the
// subscription id, and shown once to the subscriber.
type Subscribed struct {
	SubscriptionID string `json:"subscription_id"`
	Owner          string `json:"owner"` // "user:<id>" or "agent:<id>"
	URL            string `json:"url"`
	Kinds          []Kind `json:"kinds"`
}

// EventType implements [event.Payload].
func (*Subscribed) EventType() event.EventType { return EventWebhookSubscribed }

// Unsubscribed is the payload of [EventWebhookUnsubscribed].
type Unsubscribed struct {
	SubscriptionID string `json:"subscription_id"`
}

// EventType implements [event.Payload].
func (*Unsubscribed) EventType() event.EventType { return EventWebhookUnsubscribed }

// Delivered is the payload of [EventWebhookDelivered]: one attempt.
type Delivered struct {
	SubscriptionID string `json:"subscription_id"`
	NoticeID       string `json:"notice_id"`
	Attempt        int    `json:"attempt"`
	// Status is the receiver's HTTP status (0: no answer).
	Status int `json:"status"`
	// Error says why the attempt failed ("" when it was delivered).
	Error string `json:"error,omitempty"`
}

// EventType implements [event.Payload].
func (*Delivered) EventType() event.EventType { return EventWebhookDelivered }

// init registers this file's event types in the catalog.
func init() {
	event.Register(
		event.NewSpec[Posted]("A notice was posted to a person's or an external agent's inbox."),
		event.NewSpec[Subscribed]("A webhook subscription was made for some kinds of notices."),
		event.NewSpec[Unsubscribed]("A webhook subscription ended."),
		event.NewSpec[Delivered]("A notice was delivered to a webhook subscription, or an attempt failed."),
	)
}
