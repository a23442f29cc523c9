// Package notify tells people and external agents what needs them: it
// turns the events of every process into notices (towow.notice.posted on
// each recipient's inbox stream) and delivers them to the recipients'
// webhooks, signed as the Standard Webhooks spec says, by River jobs with
// retries; each attempt is recorded (towow.webhook.delivered). One file
// per job, River's style; the commands manage the subscriptions.
package notify

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"time"

	"github.com/riverqueue/river"

	"github.com/towow/towow/directory"
	"github.com/towow/towow/uow"
)

// Config tunes the notices' process.
type Config struct {
	// Key derives each subscription's signing secret (HMAC-SHA256 of the
	// subscription id): secrets are never stored, only shown once.
	Key []byte
	// Allowed says whether a webhook's host may be called (the server's
	// allow list for outgoing requests).
	Allowed func(host string) bool
	// HTTPClient delivers (default: a client with a 10 s timeout).
	HTTPClient *http.Client
	// Now is the clock (default time.Now).
	Now func() time.Time
}

// Process is the notices' process.
type Process struct {
	cfg Config
	u   *uow.UnitOfWork
	dir *directory.Directory
}

// New returns the notices' process writing through u.
func New(u *uow.UnitOfWork, dir *directory.Directory, cfg Config) *Process {
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Timeout: 10 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse // a webhook is answered where it is, never redirected elsewhere
		}}
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Allowed == nil {
		cfg.Allowed = func(string) bool { return false }
	}
	return &Process{cfg: cfg, u: u, dir: dir}
}

// Register adds the process's workers.
func (p *Process) Register(workers *river.Workers) {
	river.AddWorker(workers, &NoticeWorker{p: p})
	river.AddWorker(workers, &DeliverWorker{p: p})
}

// Secret is subscription id's signing secret, as Standard Webhooks writes
// it ("whsec_" and the base64 key).
func (p *Process) Secret(subscriptionID string) string {
	m := hmac.New(sha256.New, p.cfg.Key)
	m.Write([]byte("webhook:" + subscriptionID))
	return "whsec_" + base64.StdEncoding.EncodeToString(m.Sum(nil))
}
