package notify

import (
	"context"
	"fmt"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/notice"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/uow"
)

// Commands are the notices' commands: a recipient's webhook
// subscriptions and redeliveries. Who asks is the API's to check.
type Commands struct {
	p *Process
}

// NewCommands returns the commands of p.
func NewCommands(p *Process) *Commands { return &Commands{p: p} }

// Subscribe asks for owner's notices of kinds (none: all) to be POSTed to
// rawURL: the new subscription's id, its signing secret (shown once, never
// stored) and the position written. Errors: notice.ErrSubscriptionInvalid.
func (c *Commands) Subscribe(ctx context.Context, owner, rawURL string, kinds []notice.Kind) (id, secret string, cursor int64, err error) {
	if id, err = uow.NewID("wh-", 8); err != nil {
		return "", "", 0, err
	}
	cursor, err = c.decide(ctx, "subscribe", owner, func(w *notice.Webhooks) ([]event.Payload, error) {
		return w.Subscribe(owner, id, rawURL, kinds, c.p.cfg.Allowed)
	})
	if err != nil {
		return "", "", 0, err
	}
	return id, c.p.Secret(id), cursor, nil
}

// Unsubscribe ends owner's subscription id. Errors: notice.ErrNoSubscription.
func (c *Commands) Unsubscribe(ctx context.Context, owner, id string) (int64, error) {
	return c.decide(ctx, "unsubscribe", owner, func(w *notice.Webhooks) ([]event.Payload, error) { return w.Unsubscribe(id) })
}

// Redeliver delivers owner's notice noticeID to subscription id again.
// Errors: notice.ErrNoSubscription; event.ErrNotFound-like for an
// unknown notice.
func (c *Commands) Redeliver(ctx context.Context, owner, id, noticeID string) error {
	st := c.p.u.Store()
	var hooks notice.Webhooks
	if _, err := st.Fold(ctx, notice.WebhooksStream(owner), hooks.Apply); err != nil {
		return err
	}
	if _, ok := hooks.Find(id); !ok {
		return event.Errorf(notice.ErrNoSubscription, "no subscription %s", id)
	}
	var found *notice.Posted
	if _, err := st.Fold(ctx, notice.InboxStream(owner), func(p event.Payload) {
		if n, ok := p.(*notice.Posted); ok && n.NoticeID == noticeID {
			found = n
		}
	}); err != nil {
		return err
	}
	if found == nil {
		return event.Errorf(notice.ErrNoNotice, "no notice %s", noticeID)
	}
	_, err := c.p.u.Commit(ctx, "redeliver", nil, func(context.Context, *eventstore.Store) (*uow.Plan, error) {
		return &uow.Plan{Jobs: []uow.Job{{Args: DeliverArgs{Owner: owner, SubscriptionID: id, Notice: *found}}}}, nil
	})
	return err
}

// decide decides on owner's webhooks stream.
func (c *Commands) decide(ctx context.Context, step, owner string, decide func(*notice.Webhooks) ([]event.Payload, error)) (int64, error) {
	stream := notice.WebhooksStream(owner)
	return c.p.u.Commit(ctx, step, []string{stream}, func(ctx context.Context, st *eventstore.Store) (*uow.Plan, error) {
		var w notice.Webhooks
		v, err := st.Fold(ctx, stream, w.Apply)
		if err != nil {
			return nil, fmt.Errorf("load %s: %w", stream, err)
		}
		evs, err := decide(&w)
		if err != nil || len(evs) == 0 {
			return nil, err
		}
		return &uow.Plan{Appends: []uow.Append{{Stream: stream, Expected: eventstore.ExpectedVersion(v), Events: evs,
			Meta: uow.Meta("", owner, owner)}}}, nil
	})
}
