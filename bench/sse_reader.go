package bench

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"
)

// reader follows SSE streams for the benchmark's clients.
type reader interface {
	// read follows url for c until c's stop condition is met (nil), the
	// stream ends or fails, or ctx ends.
	read(ctx context.Context, url string, c *sseClient) error
	close()
}

// newReader returns the reader kind names ("" picks the default: poll
// where available) for n concurrent streams, each request carrying the
// bearer token.
func newReader(kind string, n int, token string) (reader, error) {
	switch kind {
	case "":
		if pollAvailable {
			return newPollReader(token)
		}
		return newHTTPReader(n, token), nil
	case ReaderPoll:
		if !pollAvailable {
			return nil, fmt.Errorf("reader %q is only available on Linux", kind)
		}
		return newPollReader(token)
	case ReaderHTTP:
		return newHTTPReader(n, token), nil
	}
	return nil, fmt.Errorf("unknown reader %q (want %s or %s)", kind, ReaderPoll, ReaderHTTP)
}

// httpReader reads each stream with net/http on the caller's goroutine.
type httpReader struct {
	hc    *http.Client
	token string
}

func newHTTPReader(n int, token string) *httpReader {
	return &httpReader{token: token, hc: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: n,
		DialContext: (&net.Dialer{Timeout: 10 * time.Second}).DialContext}}}
}

func (r *httpReader) close() { r.hc.CloseIdleConnections() }

func (r *httpReader) read(ctx context.Context, url string, c *sseClient) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+r.token)
	resp, err := r.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 0, 4<<10), 4<<20)
	for sc.Scan() {
		done, err := c.line(sc.Bytes(), time.Now())
		if err != nil || done {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return errors.New("the server ended the stream")
}
