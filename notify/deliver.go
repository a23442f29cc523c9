package notify

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/riverqueue/river"
	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/notice"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/uow"
)

// DeliverArgs are the arguments of the Deliver step: one notice to one
// subscription.
type DeliverArgs struct {
	Owner          string        `json:"owner"`
	SubscriptionID string        `json:"subscription_id"`
	Notice         notice.Posted `json:"notice"`
}

// Kind is the job kind (stored in river_job rows: never renamed).
func (DeliverArgs) Kind() string { return "towow.deliver_webhook" }

// MaxDeliveryAttempts bounds the attempts of one delivery (River retries
// with its backoff: seconds, then minutes, then hours).
const MaxDeliveryAttempts = 8

// InsertOpts makes River try a delivery at most MaxDeliveryAttempts times.
func (DeliverArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{MaxAttempts: MaxDeliveryAttempts}
}

// DeliverWorker runs the Deliver step.
type DeliverWorker struct {
	river.WorkerDefaults[DeliverArgs]
	p *Process
}

// Message is the body a webhook receives: the Standard Webhooks shape.
type Message struct {
	Type      notice.Kind   `json:"type"`
	Timestamp time.Time     `json:"timestamp"`
	Data      notice.Posted `json:"data"`
}

// Work POSTs the notice, signed, to the subscription's URL, and records
// the attempt; a failed attempt is retried (an error for River) until the
// last. A subscription that ended meanwhile is not delivered to.
func (w *DeliverWorker) Work(ctx context.Context, job *river.Job[DeliverArgs]) error {
	p, a := w.p, job.Args
	var hooks notice.Webhooks
	if _, err := p.u.Store().Fold(ctx, notice.WebhooksStream(a.Owner), hooks.Apply); err != nil {
		return err
	}
	sub, ok := hooks.Find(a.SubscriptionID)
	if !ok {
		return nil
	}
	// The title is stored sealed (here in the job's arguments too): the
	// subscriber gets it revealed, or "[已删除]" once its subject is erased.
	n := a.Notice
	title, err := p.u.Store().Reveal(ctx, n.Title)
	if err != nil {
		return err
	}
	n.Title = title
	status, failure := p.post(ctx, sub, n)
	d := &notice.Delivered{SubscriptionID: sub.ID, NoticeID: a.Notice.NoticeID, Attempt: job.Attempt, Status: status, Error: failure}
	stream := notice.WebhooksStream(a.Owner)
	if _, err := p.u.Commit(ctx, "deliver", []string{stream}, func(ctx context.Context, st *eventstore.Store) (*uow.Plan, error) {
		v, err := st.StreamVersion(ctx, stream)
		if err != nil {
			return nil, err
		}
		return &uow.Plan{Appends: []uow.Append{{Stream: stream, Expected: eventstore.ExpectedVersion(v), Events: []event.Payload{d},
			Meta: uow.Meta("", event.ActorSystem, uow.Causation(job.Kind, job.ID))}}}, nil
	}); err != nil {
		return err
	}
	if failure != "" {
		return fmt.Errorf("deliver %s to %s: %s", a.Notice.NoticeID, sub.ID, failure)
	}
	return nil
}

// post sends one attempt: the receiver's status, and why it failed ("":
// delivered, a 2xx).
func (p *Process) post(ctx context.Context, sub notice.Subscription, n notice.Posted) (int, string) {
	u, err := url.Parse(sub.URL)
	if err != nil || !p.cfg.Allowed(u.Host) {
		return 0, u.Host + " is not on the allow list"
	}
	now := p.cfg.Now()
	body, err := json.Marshal(Message{Type: n.Kind, Timestamp: now.UTC(), Data: n})
	if err != nil {
		return 0, err.Error()
	}
	wh, err := standardwebhooks.NewWebhook(p.Secret(sub.ID))
	if err != nil {
		return 0, err.Error()
	}
	msgID := n.NoticeID + "." + sub.ID // the same on every attempt: receivers drop repeats by it
	sig, err := wh.Sign(msgID, now, body)
	if err != nil {
		return 0, err.Error()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, sub.URL, bytes.NewReader(body))
	if err != nil {
		return 0, err.Error()
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("webhook-id", msgID)
	req.Header.Set("webhook-timestamp", fmt.Sprint(now.Unix()))
	req.Header.Set("webhook-signature", sig)
	resp, err := p.cfg.HTTPClient.Do(req)
	if err != nil {
		return 0, "no answer: " + err.Error()
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode/100 != 2 {
		return resp.StatusCode, "the receiver answered " + resp.Status
	}
	return resp.StatusCode, ""
}

// PersonalSubject implements event.Subjected: the notice's title is
// sealed as the notice is.
func (a DeliverArgs) PersonalSubject() string { return a.Notice.PersonalSubject() }
