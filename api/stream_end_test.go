package api_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/towow/towow/api"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/domain/workflow"
	"github.com/towow/towow/eventstore"
)

// sseFrame is one message of a stream as received, and when.
type sseFrame struct {
	id, event, data string
	at              time.Time
}

// sseRead is what a stream sent until it closed or the reader gave up.
type sseRead struct {
	frames   []sseFrame
	closed   bool      // the server ended the response (EOF)
	closedAt time.Time // when
}

// readSSE GETs a stream as token (with Last-Event-ID lastID unless empty)
// and reads it until the server closes it or within has passed. Every
// message must carry an id: a message without one fails the test.
func (a *testAPI) readSSE(t *testing.T, path, token, lastID string, within time.Duration) sseRead {
	t.Helper()
	r, err := a.tryReadSSE(path, token, lastID, within)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// tryReadSSE is readSSE for any goroutine: it returns what fails.
func (a *testAPI) tryReadSSE(path, token, lastID string, within time.Duration) (sseRead, error) {
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, a.url+path, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	var out sseRead
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return out, fmt.Errorf("GET %s: %w", path, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		b, _ := io.ReadAll(resp.Body)
		return out, fmt.Errorf("GET %s: %d %s %s", path, resp.StatusCode, resp.Header.Get("Content-Type"), b)
	}
	var cur sseFrame
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "id: "):
			cur.id = line[4:]
		case strings.HasPrefix(line, "event: "):
			cur.event = line[7:]
		case strings.HasPrefix(line, "data: "):
			cur.data = line[6:]
		case strings.HasPrefix(line, ":"): // a comment keeps the connection alive: no message
		case line == "" && cur.data != "":
			if cur.id == "" {
				return out, fmt.Errorf("GET %s: message %d has no id: %s %s", path, len(out.frames), cur.event, cur.data)
			}
			cur.at = time.Now()
			out.frames = append(out.frames, cur)
			cur = sseFrame{}
		}
	}
	if err := sc.Err(); err == nil {
		out.closed, out.closedAt = true, time.Now()
	} else if ctx.Err() == nil {
		return out, fmt.Errorf("GET %s: %w", path, err)
	}
	return out, nil
}

// endOf is the terminal frame's data, after checking that the stream
// closed right after it, as its last message.
func endOf(t *testing.T, what string, r sseRead) (sseFrame, api.StreamEnd) {
	t.Helper()
	if len(r.frames) == 0 || !r.closed {
		t.Fatalf("%s: %d messages, closed %v: want a terminal message, then the end of the stream", what, len(r.frames), r.closed)
	}
	last := r.frames[len(r.frames)-1]
	var end api.StreamEnd
	if last.event != api.StreamEndEventType || json.Unmarshal([]byte(last.data), &end) != nil {
		t.Fatalf("%s: the last message is %s %s, want %s", what, last.event, last.data, api.StreamEndEventType)
	}
	if strconv.FormatInt(end.Cursor, 10) != last.id {
		t.Fatalf("%s: the terminal message's id %s, its cursor %d", what, last.id, end.Cursor)
	}
	if gap := r.closedAt.Sub(last.at); gap > 3*time.Second {
		t.Fatalf("%s: the stream closed %s after its terminal message", what, gap)
	}
	for _, f := range r.frames[:len(r.frames)-1] {
		if f.event == api.StreamEndEventType {
			t.Fatalf("%s: a terminal message before the last one: %s", what, f.data)
		}
	}
	return last, end
}

// TestNegotiationStreamEnds follows a negotiation live with no follow
// parameter: the stream is the tree's log, every message with its id, then
// towow.stream.end (how the root ended, the last cursor) right after the
// root's last events, and it closes. After the end: the bridge format
// ends the same way, every message with an id; a reconnect from the
// terminal id gets only the terminal message; a resume in the middle gets
// the rest and the end; with follow=true the stream stays open; another
// user gets 404.
func TestNegotiationStreamEnds(t *testing.T) {
	a := newAPI(t)
	alice, bob := userToken(t, "alice"), userToken(t, "bob")
	demandID, _ := a.submitAs(t, "alice", "我想在北京办一场AI主题聚会，需要场地和嘉宾")
	path := "/api/v1/events/negotiations/" + demandID + "/stream"

	live := a.readSSE(t, path, alice, "", 90*time.Second)
	last, end := endOf(t, "live", live)
	log, err := a.store.ReadAll(context.Background(), 0, eventstore.Filter{CorrelationID: demandID, UntilPosition: end.Cursor}, eventstore.MaxReadLimit)
	if err != nil {
		t.Fatal(err)
	}
	events := live.frames[:len(live.frames)-1]
	if len(events) != len(log) || end.Cursor != log[len(log)-1].Position {
		sent := map[string]bool{}
		for _, f := range events {
			sent[f.id] = true
		}
		var missing []string
		for _, e := range log {
			if !sent[strconv.FormatInt(e.Position, 10)] {
				missing = append(missing, fmt.Sprintf("%d %s on %s (recorded %s)", e.Position, e.Type, e.StreamID, e.RecordedAt.Format(time.RFC3339Nano)))
			}
		}
		t.Fatalf("live: %d messages before the end (cursor %d, the last sent at %s), the log holds %d up to it (the last at %d); not sent: %v",
			len(events), end.Cursor, last.at.Format(time.RFC3339Nano), len(log), log[len(log)-1].Position, missing)
	}
	var rootStatus negotiation.ChannelStatus
	rootClosed := -1
	for i, e := range log {
		if events[i].id != strconv.FormatInt(e.Position, 10) || events[i].event != string(e.Type) {
			t.Fatalf("live message %d: %s %s, want %d %s", i, events[i].id, events[i].event, e.Position, e.Type)
		}
		p, err := e.Decode()
		if err != nil {
			t.Fatal(err)
		}
		switch x := p.(type) {
		case *negotiation.NegotiationCompleted:
			if x.DemandID == demandID {
				rootStatus = x.Status
			}
		case *negotiation.ChannelClosed:
			if x.ChannelID == negotiation.ChannelIDFor(demandID) {
				rootClosed = i
			}
		}
	}
	if rootStatus == "" || rootClosed < 0 {
		t.Fatalf("the stream ended before the root did (status %q)", rootStatus)
	}
	if end.DemandID != demandID || end.Status != string(rootStatus) || end.WorkflowID != "" ||
		(end.Status == "failed") != (end.Reason != "") {
		t.Fatalf("the end: %+v, want the root's %s", end, rootStatus)
	}
	if gap := last.at.Sub(events[rootClosed].at); gap > 5*time.Second {
		t.Fatalf("the terminal message came %s after the root's channel closed", gap)
	}

	// After the end, as its clients see it.
	for _, c := range []struct {
		name, query, lastID string
		want                []sseFrame // the messages before the terminal one
	}{
		{"from the start", "", "", events},
		{"resumed in the middle", "", events[len(events)/2].id, events[len(events)/2+1:]},
		{"resumed at the end", "", last.id, nil},
		{"resumed beyond the end", "", strconv.FormatInt(end.Cursor+1000, 10), nil},
		{"as the bridge", "?format=bridge", "", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := a.readSSE(t, path+c.query, alice, c.lastID, 20*time.Second)
			_, got := endOf(t, c.name, r)
			wantCursor := end.Cursor
			if c.name == "resumed beyond the end" {
				wantCursor += 1000 // nothing sent: the resume point
			}
			if got.DemandID != end.DemandID || got.Status != end.Status || got.Reason != end.Reason || got.Cursor != wantCursor {
				t.Fatalf("the end %+v, want %+v at %d", got, end, wantCursor)
			}
			before := r.frames[:len(r.frames)-1]
			if c.query != "" { // the bridge: a message per bridge event, every one with an id of an event of the tree
				if len(before) == 0 {
					t.Fatal("no bridge message before the end")
				}
				for _, f := range before {
					cursor, _, _ := strings.Cut(f.id, ":")
					if n, err := strconv.ParseInt(cursor, 10, 64); err != nil || n <= 0 || n > end.Cursor || f.event != "" {
						t.Fatalf("bridge message %s %s %s", f.id, f.event, f.data)
					}
				}
				return
			}
			if len(before) != len(c.want) {
				t.Fatalf("%d messages before the end, want %d", len(before), len(c.want))
			}
			for i := range before {
				if before[i].id != c.want[i].id || before[i].data != c.want[i].data {
					t.Fatalf("message %d: %s, want %s", i, before[i].id, c.want[i].id)
				}
			}
		})
	}

	// follow=true: the whole log, then the stream stays open.
	followed := a.readSSE(t, path+"?follow=true", alice, "", 2*time.Second)
	if followed.closed || len(followed.frames) != len(events) || followed.frames[len(followed.frames)-1].event == api.StreamEndEventType {
		t.Fatalf("follow=true: %d messages (the log: %d), closed %v", len(followed.frames), len(events), followed.closed)
	}

	// Another user: as if there were no such negotiation.
	for _, q := range []string{"", "?format=bridge", "?follow=true"} {
		a.expect(t, "bob's stream"+q, bob, http.MethodGet, path+q, "", http.StatusNotFound, api.CodeNotFound)
	}
}

// TestWorkflowStreamEnds follows two workflows of one's own live: the
// stream of one cancelled, then of one run to completion, ends with
// towow.stream.end (the workflow, its status, the last cursor) after the
// ending event and closes; a reconnect from the terminal id gets only the
// terminal message; follow=true stays open; another user gets 404.
func TestWorkflowStreamEnds(t *testing.T) {
	a := newAPI(t)
	alice, bob := userToken(t, "alice"), userToken(t, "bob")
	create := func() api.CanvasView {
		t.Helper()
		var w api.CanvasView
		if err := json.Unmarshal([]byte(a.expect(t, "create", alice, http.MethodPost, "/api/v1/workflows",
			`{"title":"发布会审批","template":"approval"}`, 201, "workflow_id")), &w); err != nil {
			t.Fatal(err)
		}
		return w
	}
	// follow reads the workflow's stream from its creation in the
	// background, until it closes.
	follow := func(w api.CanvasView) <-chan sseRead {
		t.Helper()
		out := make(chan sseRead, 1)
		before := a.metric(t, "sse_active_connections")
		go func() {
			r, err := a.tryReadSSE("/api/v1/events/workflows/"+w.WorkflowID+"/stream?client_id=tab-1", alice, strconv.FormatInt(w.Cursor, 10), 60*time.Second)
			if err != nil {
				t.Error(err)
			}
			out <- r
		}()
		waitMetric(t, a, "sse_active_connections", before+1)
		return out
	}

	for _, c := range []struct {
		status workflow.WorkflowStatus
		ended  string // the event type that ends it
		run    func(t *testing.T, w api.CanvasView)
	}{
		{workflow.WorkflowStatusCancelled, string(workflow.EventWorkflowCancelled), func(t *testing.T, w api.CanvasView) {
			a.expect(t, "cancel", alice, http.MethodPost, "/api/v1/workflows/"+w.WorkflowID+"/decisions",
				`{"decision_type":"cancel_workflow","base_version":0}`, 200, "")
		}},
		{workflow.WorkflowStatusCompleted, string(workflow.EventWorkflowCompleted), func(t *testing.T, w api.CanvasView) {
			base := "/api/v1/workflows/" + w.WorkflowID
			a.expect(t, "run", alice, http.MethodPost, base+"/decisions",
				`{"decision_type":"execute_workflow","base_version":`+strconv.Itoa(w.Version)+`}`, 200, "")
			for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
				st, _, _ := a.asUser(t, alice, http.MethodPost, base+"/nodes/approve/approval", `{"approved":true}`)
				if st == http.StatusOK {
					return
				}
				if st != http.StatusConflict || time.Now().After(deadline) { // 409 until the approval runs
					t.Fatalf("approve: %d", st)
				}
			}
		}},
	} {
		t.Run(string(c.status), func(t *testing.T) {
			w := create()
			path := "/api/v1/events/workflows/" + w.WorkflowID + "/stream"
			got := follow(w)
			c.run(t, w)
			r := <-got
			last, end := endOf(t, "live", r)
			if end.WorkflowID != w.WorkflowID || end.Status != string(c.status) || end.DemandID != "" || end.Reason != "" {
				t.Fatalf("the end: %+v, want %s", end, c.status)
			}
			log, err := a.store.ReadAll(context.Background(), w.Cursor, eventstore.Filter{StreamID: workflow.WorkflowStream(w.WorkflowID),
				UntilPosition: end.Cursor}, eventstore.MaxReadLimit)
			if err != nil {
				t.Fatal(err)
			}
			events := r.frames[:len(r.frames)-1]
			if len(events) != len(log) || len(log) == 0 || log[len(log)-1].Position != end.Cursor {
				t.Fatalf("%d messages before the end (cursor %d), the log holds %d after the creation", len(events), end.Cursor, len(log))
			}
			ended := false
			for i, e := range log {
				if events[i].id != strconv.FormatInt(e.Position, 10) {
					t.Fatalf("message %d: id %s, want %d", i, events[i].id, e.Position)
				}
				ended = ended || string(e.Type) == c.ended
			}
			if !ended {
				t.Fatalf("the stream ended without %s", c.ended)
			}

			again := a.readSSE(t, path, alice, last.id, 10*time.Second)
			if _, e := endOf(t, "resumed at the end", again); len(again.frames) != 1 || e != end {
				t.Fatalf("resumed at the end: %d messages, the end %+v, want only %+v", len(again.frames), e, end)
			}
			followed := a.readSSE(t, path+"?follow=true", alice, last.id, 1500*time.Millisecond)
			if followed.closed || len(followed.frames) != 0 {
				t.Fatalf("follow=true after the end: %d messages, closed %v", len(followed.frames), followed.closed)
			}
			a.expect(t, "bob's stream", bob, http.MethodGet, path, "", http.StatusNotFound, api.CodeNotFound)
		})
	}
}
