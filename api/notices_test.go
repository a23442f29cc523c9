package api_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/towow/towow/api"
)

// receiver is a webhook receiver that checks every signature, answers
// 500 to the first delivery of each message and 204 to the rest.
type receiver struct {
	mu       sync.Mutex
	secret   string
	got      []api.Notice // the verified messages' notices, in arrival order
	attempts map[string]int
	bad      int // deliveries whose signature did not verify
}

func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	defer r.mu.Unlock()
	wh, err := standardwebhooks.NewWebhook(r.secret)
	if err != nil || wh.Verify(body, req.Header) != nil {
		r.bad++
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	id := req.Header.Get("webhook-id")
	r.attempts[id]++
	if r.attempts[id] == 1 {
		w.WriteHeader(http.StatusInternalServerError)
		return
	}
	var m struct {
		Type string     `json:"type"`
		Data api.Notice `json:"data"`
	}
	_ = json.Unmarshal(body, &m)
	r.got = append(r.got, m.Data)
	w.WriteHeader(http.StatusNoContent)
}

// TestNoticesAndWebhooks: alice subscribes a webhook; her negotiation's
// agreement is a notice in her inbox (the list and the live stream) and a
// signed POST to her receiver, retried after its 500 and logged attempt by
// attempt; a redelivery posts it again; bob sees none of it, and cannot
// touch her subscription.
func TestNoticesAndWebhooks(t *testing.T) {
	recv := &receiver{attempts: map[string]int{}}
	srv := httptest.NewServer(recv)
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	a := newAPIWith(t, "", apiOptions{httpAllow: []string{host}})
	alice, bob := userToken(t, "alice"), userToken(t, "bob")

	expect := func(name, token, method, path, body string, status int) string {
		t.Helper()
		st, _, got := a.asUser(t, token, method, path, body)
		if st != status {
			t.Fatalf("%s: %d %.400s, want %d", name, st, got, status)
		}
		return got
	}
	expect("a URL off the allow list", alice, "POST", "/api/v1/webhooks", `{"url":"http://elsewhere.example/hook"}`, 422)
	expect("an unknown kind", alice, "POST", "/api/v1/webhooks", `{"url":"`+srv.URL+`/hook","kinds":["gossip"]}`, 422)
	var created api.WebhookCreated
	if err := json.Unmarshal([]byte(expect("subscribe", alice, "POST", "/api/v1/webhooks",
		`{"url":"`+srv.URL+`/hook","kinds":["negotiation.agreed","workflow.completed"]}`, 201)), &created.Body); err != nil ||
		!strings.HasPrefix(created.Body.Secret, "whsec_") {
		t.Fatalf("subscription %+v %v", created.Body, err)
	}
	recv.mu.Lock()
	recv.secret = created.Body.Secret
	recv.mu.Unlock()

	st, _, body := a.asUser(t, alice, "POST", "/api/v1/demand/submit", `{"raw_input":"我想在北京办一场AI主题聚会，需要场地和嘉宾"}`)
	if st != 202 {
		t.Fatalf("submit: %d %s", st, body)
	}
	// The notice arrives at the receiver once its first attempt failed.
	var n api.Notice
	for deadline := time.Now().Add(40 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		recv.mu.Lock()
		if len(recv.got) > 0 {
			n = recv.got[0]
		}
		bad := recv.bad
		recv.mu.Unlock()
		if bad > 0 {
			t.Fatalf("%d deliveries with a signature that does not verify", bad)
		}
		if n.NoticeID != "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no delivery")
		}
	}
	if n.Kind != "negotiation.agreed" || n.Recipient != "user:alice" || !strings.Contains(n.Title, "达成协议") || n.DemandID == "" {
		t.Fatalf("the delivered notice: %+v", n)
	}
	// Her inbox lists it; the delivery log holds the failed attempt and the delivered one.
	var inbox api.NoticesOutput
	if got := expect("alice's notices", alice, "GET", "/api/v1/notices", "", 200); !strings.Contains(got, n.NoticeID) ||
		json.Unmarshal([]byte(got), &inbox.Body) != nil || len(inbox.Body.Notices) == 0 {
		t.Fatalf("her inbox: %.400s", got)
	}
	if at := inbox.Body.Notices[0].PostedAt; at.IsZero() || time.Since(at) > time.Hour {
		t.Fatalf("the newest notice was posted at %v", at)
	}
	var hooks api.WebhooksOutput
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		hooks = api.WebhooksOutput{} // decoding into the last answer would keep its fields that this one leaves out
		_ = json.Unmarshal([]byte(expect("her webhooks", alice, "GET", "/api/v1/webhooks", "", 200)), &hooks.Body)
		if len(hooks.Body.Webhooks) == 1 && len(hooks.Body.Webhooks[0].Deliveries) >= 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the delivery log: %+v", hooks.Body)
		}
	}
	d := hooks.Body.Webhooks[0].Deliveries
	if d[0].Status != 204 || d[0].Error != "" || d[1].Status != 500 || d[1].Error == "" || d[1].Attempt != 1 || d[0].Attempt != 2 {
		t.Fatalf("attempts, newest first: %+v", d)
	}
	// The live stream of her inbox replays it.
	if got := expect("her notice stream", alice, "GET", "/api/v1/notices/stream", "", 200); !strings.Contains(got, n.NoticeID) {
		t.Fatalf("her stream: %.400s", got)
	}
	// Bob: nothing of hers, and her subscription is not his to touch.
	if got := expect("bob's notices", bob, "GET", "/api/v1/notices", "", 200); strings.Contains(got, n.NoticeID) {
		t.Fatal("bob sees alice's notice")
	}
	if got := expect("bob's webhooks", bob, "GET", "/api/v1/webhooks", "", 200); strings.Contains(got, created.Body.SubscriptionID) {
		t.Fatal("bob sees alice's webhook")
	}
	expect("bob redelivers hers", bob, "POST", "/api/v1/webhooks/"+created.Body.SubscriptionID+"/redeliver", `{"notice_id":"`+n.NoticeID+`"}`, 404)
	expect("bob deletes hers", bob, "DELETE", "/api/v1/webhooks/"+created.Body.SubscriptionID, "", 404)
	// A redelivery: the same message again (the same webhook-id: a receiver that has it already may drop it).
	recv.mu.Lock()
	before := len(recv.got)
	recv.mu.Unlock()
	expect("redeliver", alice, "POST", "/api/v1/webhooks/"+created.Body.SubscriptionID+"/redeliver", `{"notice_id":"`+n.NoticeID+`"}`, 202)
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		recv.mu.Lock()
		now := len(recv.got)
		recv.mu.Unlock()
		if now > before {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no redelivery")
		}
	}
	expect("unsubscribe", alice, "DELETE", "/api/v1/webhooks/"+created.Body.SubscriptionID, "", 200)
	if got := expect("after unsubscribing", alice, "GET", "/api/v1/webhooks", "", 200); strings.Contains(got, created.Body.SubscriptionID) {
		t.Fatal("the subscription is still listed")
	}
}
