package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"time"
)

const pollAvailable = true

// pollReader reads every stream from raw non-blocking sockets in one epoll
// loop per core: a delivery costs the client one read, with no goroutine
// woken and no HTTP client machinery, so the clients take as little as
// possible of the machine the server is measured on.
type pollReader struct {
	// token is the bearer token every stream's request carries.
	token string
	loops []*pollLoop
	stop  chan struct{}
	wg    sync.WaitGroup
}

// pollLoop is one epoll instance and the streams registered with it.
type pollLoop struct {
	epfd    int
	mu      sync.Mutex // held while the loop handles ready streams
	streams map[int32]*pollStream
}

// pollStream is one connection's parse state.
type pollStream struct {
	fd   int
	c    *sseClient
	done chan error // receives once when the stream ends
	// raw holds received bytes not yet decoded; body holds decoded SSE
	// bytes not yet split into lines.
	raw, body []byte
	header    bool // the response header has been read
	left      int  // bytes left in the current chunk
	crlf      bool // a chunk's trailing CRLF is due
}

func newPollReader(token string) (*pollReader, error) {
	r := &pollReader{token: token, stop: make(chan struct{})}
	for range max(1, runtime.GOMAXPROCS(0)) {
		epfd, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
		if err != nil {
			r.close()
			return nil, fmt.Errorf("epoll: %w", err)
		}
		l := &pollLoop{epfd: epfd, streams: map[int32]*pollStream{}}
		r.loops = append(r.loops, l)
		r.wg.Add(1)
		go func() { defer r.wg.Done(); l.run(r.stop) }()
	}
	return r, nil
}

func (r *pollReader) close() {
	close(r.stop)
	r.wg.Wait()
	for _, l := range r.loops {
		l.mu.Lock()
		l.endAll(errors.New("the reader was closed"))
		l.mu.Unlock()
		syscall.Close(l.epfd)
	}
}

func (r *pollReader) read(ctx context.Context, rawURL string, c *sseClient) error {
	u, err := url.Parse(rawURL)
	if err != nil {
		return err
	}
	fd, err := dialRaw(ctx, u, r.token)
	if err != nil {
		return fmt.Errorf("GET %s: %w", rawURL, err)
	}
	s := &pollStream{fd: fd, c: c, done: make(chan error, 1)}
	l := r.loops[fd%len(r.loops)]
	l.mu.Lock()
	l.streams[int32(fd)] = s
	err = syscall.EpollCtl(l.epfd, syscall.EPOLL_CTL_ADD, fd, &syscall.EpollEvent{Events: syscall.EPOLLIN | syscall.EPOLLRDHUP, Fd: int32(fd)})
	if err != nil {
		delete(l.streams, int32(fd))
	}
	l.mu.Unlock()
	if err != nil {
		syscall.Close(fd)
		return fmt.Errorf("epoll add: %w", err)
	}
	select {
	case err := <-s.done:
		return err
	case <-ctx.Done():
		l.mu.Lock()
		if l.streams[int32(fd)] == s {
			l.end(s, nil)
		}
		l.mu.Unlock()
		return ctx.Err()
	}
}

// dialRaw connects to u's host and sends the GET request with Go's
// (cancellable) dialer, then takes the socket out of Go's poller: it
// returns a non-blocking duplicate of the connection's descriptor and
// closes the original (the socket stays open through the duplicate).
func dialRaw(ctx context.Context, u *url.URL, token string) (int, error) {
	conn, err := (&net.Dialer{Timeout: 10 * time.Second}).DialContext(ctx, "tcp", u.Host)
	if err != nil {
		return -1, err
	}
	defer conn.Close()
	if dl, ok := ctx.Deadline(); ok {
		_ = conn.SetWriteDeadline(dl)
	}
	if _, err := io.WriteString(conn, "GET "+u.RequestURI()+" HTTP/1.1\r\nHost: "+u.Host+"\r\nAccept: text/event-stream\r\nAuthorization: Bearer "+token+"\r\n\r\n"); err != nil {
		return -1, fmt.Errorf("send request: %w", err)
	}
	rc, err := conn.(*net.TCPConn).SyscallConn()
	if err != nil {
		return -1, err
	}
	fd, derr := -1, error(nil)
	if err := rc.Control(func(orig uintptr) { fd, derr = syscall.Dup(int(orig)) }); err != nil {
		return -1, err
	}
	if derr != nil {
		return -1, fmt.Errorf("dup: %w", derr)
	}
	syscall.CloseOnExec(fd)
	if err := syscall.SetNonblock(fd, true); err != nil {
		syscall.Close(fd)
		return -1, err
	}
	return fd, nil
}

// run waits for readable streams and handles them until stop.
func (l *pollLoop) run(stop <-chan struct{}) {
	events := make([]syscall.EpollEvent, 256)
	buf := make([]byte, 256<<10)
	for {
		select {
		case <-stop:
			return
		default:
		}
		n, err := syscall.EpollWait(l.epfd, events, 100)
		if err != nil && !errors.Is(err, syscall.EINTR) {
			l.mu.Lock()
			l.endAll(fmt.Errorf("epoll wait: %w", err))
			l.mu.Unlock()
			return
		}
		if n <= 0 {
			continue
		}
		l.mu.Lock()
		for _, ev := range events[:n] {
			s, ok := l.streams[ev.Fd]
			if !ok {
				continue // ended meanwhile
			}
			got, err := syscall.Read(s.fd, buf)
			switch {
			case errors.Is(err, syscall.EAGAIN), errors.Is(err, syscall.EINTR):
				continue
			case err != nil:
				l.end(s, fmt.Errorf("read: %w", err))
				continue
			case got == 0:
				l.end(s, errors.New("the server closed the stream"))
				continue
			}
			if done, err := s.feed(buf[:got], time.Now()); done || err != nil {
				l.end(s, err)
			}
		}
		l.mu.Unlock()
	}
}

// endAll ends every stream of l with err; l.mu held.
func (l *pollLoop) endAll(err error) {
	for _, s := range l.streams {
		l.end(s, err)
	}
}

// end unregisters and closes s and reports err to its reader; l.mu held.
func (l *pollLoop) end(s *pollStream, err error) {
	delete(l.streams, int32(s.fd))
	_ = syscall.EpollCtl(l.epfd, syscall.EPOLL_CTL_DEL, s.fd, nil)
	syscall.Close(s.fd)
	s.done <- err
}

var crlf = []byte("\r\n")

// feed decodes received bytes (the response header, then HTTP/1.1 chunks)
// and hands the SSE lines to the client; done reports that its stop
// condition was met.
func (s *pollStream) feed(p []byte, now time.Time) (done bool, err error) {
	s.raw = append(s.raw, p...)
	raw := s.raw
	defer func() { s.raw = keep(s.raw, raw) }()
	if !s.header {
		i := bytes.Index(raw, []byte("\r\n\r\n"))
		if i < 0 {
			return false, nil
		}
		head := raw[:i]
		if !bytes.HasPrefix(head, []byte("HTTP/1.1 200 ")) {
			status, _, _ := bytes.Cut(head, crlf)
			return false, fmt.Errorf("response %q", status)
		}
		if !bytes.Contains(bytes.ToLower(head), []byte("transfer-encoding: chunked")) {
			return false, errors.New("the response is not chunked")
		}
		s.header, raw = true, raw[i+4:]
	}
	ended := false // the last chunk came: the lines before it are handled first
chunks:
	for len(raw) > 0 {
		switch {
		case s.crlf:
			if len(raw) < 2 {
				return false, nil
			}
			if !bytes.HasPrefix(raw, crlf) {
				return false, errors.New("chunk without its trailing CRLF")
			}
			s.crlf, raw = false, raw[2:]
		case s.left == 0:
			i := bytes.Index(raw, crlf)
			if i < 0 {
				return false, nil
			}
			size, err := strconv.ParseInt(string(raw[:i]), 16, 64)
			if err != nil {
				return false, fmt.Errorf("chunk size %q", raw[:i])
			}
			if size == 0 {
				ended, raw = true, raw[i+2:]
				break chunks
			}
			s.left, raw = int(size), raw[i+2:]
		default:
			n := min(s.left, len(raw))
			s.body = append(s.body, raw[:n]...)
			s.left -= n
			s.crlf = s.left == 0
			raw = raw[n:]
		}
	}
	body := s.body
	defer func() { s.body = keep(s.body, body) }()
	for {
		i := bytes.IndexByte(body, '\n')
		if i < 0 {
			if ended {
				return false, errors.New("the server ended the stream")
			}
			return false, nil
		}
		line := body[:i]
		body = body[i+1:]
		if done, err := s.c.line(line, now); done || err != nil {
			return done, err
		}
	}
}

// keep moves the unconsumed rest of buf (a suffix of it) to its front,
// into a fresh small buffer when buf grew large for one big read.
func keep(buf, rest []byte) []byte {
	if cap(buf) > 64<<10 && len(rest) < 16<<10 {
		return append([]byte(nil), rest...)
	}
	return append(buf[:0], rest...)
}
