package api_test

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/internal/dbtest"
)

// TestStuckClientIsDisconnected: a client that stops reading is
// disconnected once a write to it has been blocked for SSEWriteTimeout,
// and a reading client of the same stream meanwhile gets every event, in
// order.
func TestStuckClientIsDisconnected(t *testing.T) {
	a := newAPIWith(t, dbtest.NewURL(t), apiOptions{sseWriteTimeout: time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	const path = "/api/v1/events/stream?type_prefix=towow.test."

	// The stuck client: a tiny receive buffer, and it never reads.
	d := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		var serr error
		err := c.Control(func(fd uintptr) {
			serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096)
		})
		return cmp.Or(err, serr)
	}}
	stuck, err := d.DialContext(ctx, "tcp", strings.TrimPrefix(a.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer stuck.Close()
	if _, err := fmt.Fprintf(stuck, "GET %s HTTP/1.1\r\nHost: towow\r\nAuthorization: Bearer %s\r\n\r\n", path, testAdminToken); err != nil {
		t.Fatal(err)
	}
	waitMetric(t, a, "sse_active_connections", 1)

	// The reading client.
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, a.url+path, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	waitMetric(t, a, "sse_active_connections", 2)

	// The reader reads while about 6 MB of events are appended: more than
	// the stuck connection's socket buffers hold, so a write to it blocks.
	type result struct {
		n   int
		err error
	}
	got := make(chan result, 1)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
		n := 0
		for sc.Scan() {
			line := sc.Text()
			if !strings.HasPrefix(line, "data: ") {
				continue
			}
			var ev struct {
				Payload struct {
					N int `json:"n"`
				} `json:"payload"`
			}
			if err := json.Unmarshal([]byte(line[len("data: "):]), &ev); err != nil {
				got <- result{n, fmt.Errorf("event %d: %w", n, err)}
				return
			}
			if ev.Payload.N != n {
				got <- result{n, fmt.Errorf("got event %d, want %d", ev.Payload.N, n)}
				return
			}
			if n++; n == 600 {
				got <- result{n, nil}
				return
			}
		}
		got <- result{n, fmt.Errorf("stream ended: %v", sc.Err())}
	}()
	pad := strings.Repeat("x", 10_000)
	for i := range 30 {
		batch := make([]eventstore.EventData, 20)
		for j := range batch {
			batch[j] = eventstore.EventData{Type: "towow.test.big", Payload: json.RawMessage(fmt.Sprintf(`{"n":%d,"pad":%q}`, i*20+j, pad))}
		}
		if _, err := a.store.Append(ctx, "stuck-test", eventstore.AnyVersion, batch...); err != nil {
			t.Fatal(err)
		}
	}
	if r := <-got; r.err != nil || r.n != 600 {
		t.Fatalf("the reading client got %d of 600 events: %v", r.n, r.err)
	}
	// The stuck one is gone; the reader still streams.
	waitMetric(t, a, "sse_active_connections", 1)
}

// waitMetric waits up to 10 s for a gauge to reach want.
func waitMetric(t *testing.T, a *testAPI, series string, want float64) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		v := a.metric(t, series)
		if v == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s = %v after 10 s, want %v", series, v, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
