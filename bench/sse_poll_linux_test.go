package bench

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// chunked encodes body as HTTP/1.1 chunks of the given sizes (the rest in
// one last chunk), after a response header.
func chunked(body string, sizes ...int) string {
	var b strings.Builder
	b.WriteString("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n")
	for _, n := range append(sizes, len(body)) {
		n = min(n, len(body))
		if n == 0 {
			continue
		}
		fmt.Fprintf(&b, "%x\r\n%s\r\n", n, body[:n])
		body = body[n:]
	}
	return b.String()
}

// sseBody is the stream a client sees: the opening comment, then n events.
func sseBody(n int) string {
	var b strings.Builder
	b.WriteString(": towow event stream\n\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "id: %d\nevent: towow.test.e%d\ndata: {\"event_id\":\"x\",\"timestamp\":\"2026-11-22T00:00:%02d.5Z\"}\n\n", i, i, i)
	}
	return b.String()
}

// TestPollStreamFeed: however the response arrives (split at any byte,
// in any chunk sizes), the client sees every event once, in order, and
// stops at the event its stop condition accepts.
func TestPollStreamFeed(t *testing.T) {
	body := sseBody(5)
	r := rand.New(rand.NewPCG(1, 2))
	var cases []string
	cases = append(cases, chunked(body), chunked(body, 1, 2, 3, 50, 7))
	for range 20 {
		var sizes []int
		for range 6 {
			sizes = append(sizes, 1+r.IntN(60))
		}
		cases = append(cases, chunked(body, sizes...))
	}
	for ci, resp := range cases {
		// Every two-piece split, and a few many-piece ones.
		var splits [][]int
		for i := 1; i < len(resp); i++ {
			splits = append(splits, []int{i})
		}
		for range 10 {
			var cut []int
			for at := 0; at < len(resp); at += 1 + r.IntN(40) {
				cut = append(cut, at)
			}
			splits = append(splits, cut)
		}
		for _, cut := range splits {
			c := &sseClient{stamps: &stamps{}, connected: func() {}}
			s := &pollStream{c: c}
			prev := 0
			for _, at := range append(cut, len(resp)) {
				if at <= prev {
					continue
				}
				if done, err := s.feed([]byte(resp[prev:at]), time.Now()); done || err != nil {
					t.Fatalf("case %d cut %v: done %v err %v", ci, cut, done, err)
				}
				prev = at
			}
			if c.delivered != 5 || c.last.Load() != 5 || c.evType != "towow.test.e5" || !c.started {
				t.Fatalf("case %d cut %v: delivered %d last %d type %q", ci, cut, c.delivered, c.last.Load(), c.evType)
			}
		}
	}

	// The stop condition ends the stream at its event.
	c := &sseClient{stamps: &stamps{}, connected: func() {}, stop: func(typ string, _ []byte) bool { return typ == "towow.test.e3" }}
	if done, err := (&pollStream{c: c}).feed([]byte(chunked(body, 7)), time.Now()); !done || err != nil || c.delivered != 3 {
		t.Fatalf("stop: done %v err %v delivered %d", done, err, c.delivered)
	}
	// A refused or malformed response is an error.
	for _, bad := range []string{
		"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabXY",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
	} {
		c := &sseClient{stamps: &stamps{}, connected: func() {}}
		if _, err := (&pollStream{c: c}).feed([]byte(bad), time.Now()); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
