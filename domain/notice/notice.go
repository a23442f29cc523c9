// Package notice is the notification context, pure: the kinds of notices
// (what a person or an external agent is told), their inboxes, and the
// webhook subscriptions that carry them out (decide/evolve, no I/O).
package notice

import (
	"fmt"
	"net/url"
	"slices"

	"github.com/towow/towow/domain/event"
)

// Kind is what a notice is about.
type Kind string

// The kinds of notices.
const (
	// KindAgreed: the recipient's negotiation reached an agreement.
	KindAgreed Kind = "negotiation.agreed"
	// KindFailed: the recipient's negotiation ended without one.
	KindFailed Kind = "negotiation.failed"
	// KindApproval: an approval step waits for the recipient.
	KindApproval Kind = "approval.waiting"
	// KindWorkflowCompleted and KindWorkflowFailed: the recipient's
	// workflow ended.
	KindWorkflowCompleted Kind = "workflow.completed"
	KindWorkflowFailed    Kind = "workflow.failed"
	// KindInvited: an external agent was invited to a negotiation.
	KindInvited Kind = "agent.invited"
	// KindReview: a proposal waits for an external agent's feedback.
	KindReview Kind = "proposal.review"
	// KindFinalPlan: the plan an external agent is part of was agreed.
	KindFinalPlan Kind = "plan.final"
)

// Kinds lists every kind.
var Kinds = []Kind{KindAgreed, KindFailed, KindApproval, KindWorkflowCompleted, KindWorkflowFailed, KindInvited, KindReview, KindFinalPlan}

// InboxStream is the stream of a recipient's notices ("user:<id>",
// "agent:<id>").
func InboxStream(recipient string) string { return "inbox-" + recipient }

// WebhooksStream is the stream of a recipient's webhook subscriptions and
// their delivery log.
func WebhooksStream(owner string) string { return "webhooks-" + owner }

// ErrSubscriptionInvalid is a subscription that cannot be: a URL that is
// not http(s), an unknown kind, a second subscription to the same URL.
var ErrSubscriptionInvalid = &event.Error{Code: "TOWOW_WEBHOOK_001", Message: "invalid webhook subscription"}

// ErrNoSubscription: no such subscription of this owner.
var ErrNoSubscription = &event.Error{Code: "TOWOW_WEBHOOK_002", Message: "no such webhook subscription"}

// MaxSubscriptions bounds one owner's subscriptions.
const MaxSubscriptions = 10

// Subscription is one webhook.
type Subscription struct {
	ID    string
	URL   string
	Kinds []Kind
}

// Wants reports whether s carries notices of kind k (no kinds: all).
func (s Subscription) Wants(k Kind) bool { return len(s.Kinds) == 0 || slices.Contains(s.Kinds, k) }

// Webhooks is an owner's subscriptions, folded from their webhooks
// stream.
type Webhooks struct {
	Subs []Subscription
}

// Apply folds one event.
func (w *Webhooks) Apply(p event.Payload) {
	switch e := p.(type) {
	case *Subscribed:
		w.Subs = append(w.Subs, Subscription{ID: e.SubscriptionID, URL: e.URL, Kinds: e.Kinds})
	case *Unsubscribed:
		w.Subs = slices.DeleteFunc(w.Subs, func(s Subscription) bool { return s.ID == e.SubscriptionID })
	}
}

// Find returns the subscription with id.
func (w *Webhooks) Find(id string) (Subscription, bool) {
	for _, s := range w.Subs {
		if s.ID == id {
			return s, true
		}
	}
	return Subscription{}, false
}

// Subscribe decides a new subscription id of owner to rawURL for kinds.
// allowed says whether the URL's host may be called (the server's allow
// list). Errors: ErrSubscriptionInvalid.
func (w *Webhooks) Subscribe(owner, id, rawURL string, kinds []Kind, allowed func(host string) bool) ([]event.Payload, error) {
	u, err := url.Parse(rawURL)
	switch {
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil:
		return nil, event.Errorf(ErrSubscriptionInvalid, "%q is not an http(s) URL", rawURL)
	case !allowed(u.Host):
		return nil, event.Errorf(ErrSubscriptionInvalid, "%s is not on the server's allow list (TOWOW_HTTP_ALLOW)", u.Host)
	case len(w.Subs) >= MaxSubscriptions:
		return nil, event.Errorf(ErrSubscriptionInvalid, "at most %d subscriptions", MaxSubscriptions)
	case slices.ContainsFunc(w.Subs, func(s Subscription) bool { return s.URL == rawURL }):
		return nil, event.Errorf(ErrSubscriptionInvalid, "%s is subscribed already", rawURL)
	}
	for _, k := range kinds {
		if !slices.Contains(Kinds, k) {
			return nil, event.Errorf(ErrSubscriptionInvalid, "unknown kind %q (want one of %v)", k, Kinds)
		}
	}
	return []event.Payload{&Subscribed{SubscriptionID: id, Owner: owner, URL: rawURL, Kinds: slices.Compact(slices.Sorted(slices.Values(kinds)))}}, nil
}

// Unsubscribe ends subscription id. Errors: ErrNoSubscription.
func (w *Webhooks) Unsubscribe(id string) ([]event.Payload, error) {
	if _, ok := w.Find(id); !ok {
		return nil, event.Errorf(ErrNoSubscription, "no subscription %s", id)
	}
	return []event.Payload{&Unsubscribed{SubscriptionID: id}}, nil
}

// String names the subscriptions, for logs.
func (w *Webhooks) String() string { return fmt.Sprint(w.Subs) }

// ErrNoNotice: no such notice in the recipient's inbox.
var ErrNoNotice = &event.Error{Code: "TOWOW_WEBHOOK_003", Message: "no such notice"}
