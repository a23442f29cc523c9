package api

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// The edge: every request passes here before any operation sees it. It
// gets a request id (the client's X-Request-Id when sane, else a new one;
// echoed in X-Request-Id and logged with every refusal and every 5xx), and every text that enters — the path, the
// query, the headers the API reads and the strings of a JSON body — is
// checked once: NUL, invalid UTF-8 (lone surrogates included, whether as
// bytes or as \uD800 escapes) and control characters where they make no
// sense are refused with 400 problem+json naming the parameter
// (TOWOW_REQUEST_003), logged at WARN. Dot and empty path segments are
// refused the same way, never redirected. A handler that panics answers a
// problem+json 500 and is logged at ERROR with its stack.

// CodeBadText is a path, parameter, header or body text that cannot be
// valid anywhere: NUL, invalid UTF-8, a lone surrogate, a control
// character, or a dot or empty path segment.
const CodeBadText = "TOWOW_REQUEST_003"

// maxScannedBody bounds how much of a body the edge reads to check its
// strings; a larger body passes unchecked to the operation, whose own
// size limit (1 MiB unless it declares more) refuses it.
const maxScannedBody = 8 << 20

// checkedHeaders are the request headers the API reads.
var checkedHeaders = []string{"Authorization", "Last-Event-ID", "Origin", "X-Request-Id"}

// badText says what is wrong with s as a text ("" when nothing): invalid
// UTF-8 (a lone surrogate encoded in UTF-8 is invalid), NUL, or a control
// character (C0, DEL, C1); with multiline, tab, line feed and carriage
// return are allowed.
func badText(s string, multiline bool) string {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			return fmt.Sprintf("invalid UTF-8 at byte %d", i)
		case r == 0:
			return fmt.Sprintf("a NUL character at byte %d", i)
		case multiline && (r == '\t' || r == '\n' || r == '\r'):
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			return fmt.Sprintf("control character U+%04X at byte %d", r, i)
		}
		i += n
	}
	return ""
}

// badPath says what is wrong with an API path: a text badText refuses, or
// an empty, "." or ".." segment (a trailing slash is left to routing).
func badPath(p string) string {
	if why := badText(p, false); why != "" {
		return why
	}
	segs := strings.Split(strings.TrimPrefix(p, "/"), "/")
	for i, seg := range segs {
		switch {
		case seg == "" && i < len(segs)-1:
			return "an empty path segment"
		case seg == "." || seg == "..":
			return fmt.Sprintf("a %q path segment", seg)
		}
	}
	return ""
}

// badJSON walks a JSON body and says which string (by its JSON path, e.g.
// "body.raw_input") holds a text badText refuses, or an escape that
// decodes to one (\u0000, a lone \uD800, ...), checking the literal as
// sent: the JSON decoder would otherwise turn invalid UTF-8 and lone
// surrogates into U+FFFD silently. A body that is not JSON is left to the
// operation (it answers 400/422 for it).
func badJSON(data []byte) (where, why string) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	type frame struct {
		object bool
		key    string // the current key of an object
		index  int    // the next index of an array
		isKey  bool   // an object expects a key next
	}
	var stack []frame
	path := func() string {
		var b strings.Builder
		b.WriteString("body")
		for _, f := range stack {
			switch {
			case f.object && isName(f.key):
				b.WriteString("." + f.key)
			case f.object:
				b.WriteString("[" + strconv.QuoteToASCII(f.key) + "]")
			default:
				fmt.Fprintf(&b, "[%d]", f.index-1)
			}
		}
		return b.String()
	}
	for {
		start := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return "", "" // io.EOF, or not JSON: the operation says so
		}
		top := len(stack) - 1
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '{', '[':
				if top >= 0 && !stack[top].object {
					stack[top].index++
				}
				stack = append(stack, frame{object: d == '{', isKey: d == '{'})
			default:
				stack = stack[:top]
				if top > 0 && stack[top-1].object {
					stack[top-1].isKey = true
				}
			}
			continue
		}
		atKey := top >= 0 && stack[top].object && stack[top].isKey
		if top >= 0 {
			switch {
			case !stack[top].object:
				stack[top].index++
			case atKey:
				s, _ := tok.(string)
				stack[top].key, stack[top].isKey = s, false
			default:
				stack[top].isKey = true
			}
		}
		str, ok := tok.(string)
		if !ok {
			continue
		}
		if strings.Contains(str, sealedMark) {
			return path(), "holds " + strconv.Quote(sealedMark) + ", which marks a sealed personal text and cannot be sent"
		}
		raw := data[start:dec.InputOffset()]
		if i := bytes.IndexByte(raw, '"'); i >= 0 {
			raw = raw[i:]
		}
		if why := badLiteral(raw); why != "" {
			where := path()
			if atKey {
				where += " (the key)"
			}
			return where, why
		}
	}
}

// sealedMark opens a sealed personal text as stored. No client text may
// hold it: a text copied from another subject's sealed one would otherwise
// be revealed to its sender.
const sealedMark = "{{towow:p1:"

// isName reports whether a JSON key can be shown as .key in a path.
func isName(k string) bool {
	return k != "" && !strings.ContainsFunc(k, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-')
	})
}

// badLiteral checks a JSON string literal as sent (with its quotes): its
// bytes must be valid UTF-8 and its escapes must not decode to NUL, a lone
// surrogate or a control character other than tab, line feed and carriage
// return.
func badLiteral(lit []byte) string {
	if !utf8.Valid(lit) {
		return badText(string(lit), true)
	}
	for i := 0; i < len(lit); i++ {
		if lit[i] != '\\' || i+1 >= len(lit) {
			continue
		}
		i++
		switch lit[i] {
		case 'b', 'f':
			return fmt.Sprintf("control character escape \\%c", lit[i])
		case 'u':
			r, ok := hex4(lit, i+1)
			if !ok {
				continue
			}
			i += 4
			switch {
			case r == 0:
				return `a NUL character (\u0000)`
			case r >= 0xd800 && r <= 0xdbff:
				lo, ok := uint16(0), false
				if i+6 < len(lit) && lit[i+1] == '\\' && lit[i+2] == 'u' {
					lo, ok = hex4(lit, i+3)
				}
				if !ok || lo < 0xdc00 || lo > 0xdfff {
					return fmt.Sprintf(`a lone surrogate (\u%04X)`, r)
				}
				i += 6
			case r >= 0xdc00 && r <= 0xdfff:
				return fmt.Sprintf(`a lone surrogate (\u%04X)`, r)
			case r != '\t' && r != '\n' && r != '\r' && (r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0)):
				return fmt.Sprintf(`control character \u%04X`, r)
			}
		}
	}
	return badText(string(lit), true)
}

// hex4 reads four hex digits at b[i:].
func hex4(b []byte, i int) (uint16, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	v, err := strconv.ParseUint(string(b[i:i+4]), 16, 16)
	return uint16(v), err == nil
}

// edge wraps the API's handler: request id, then the checks above.
func (s *Server) edge(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("X-Request-Id")
		if len(id) == 0 || len(id) > 64 || strings.ContainsFunc(id, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.')
		}) {
			id = newRequestID()
		}
		w.Header().Set("X-Request-Id", id)
		r = r.WithContext(context.WithValue(r.Context(), requestIDKey{}, id))
		defer func() {
			v := recover()
			switch v {
			case nil:
				return
			case http.ErrAbortHandler: // net/http's way to abort a response: let it through
				panic(v)
			}
			s.logger().ErrorContext(r.Context(), "request panicked", "request_id", id, "method", r.Method,
				"path", r.URL.EscapedPath(), "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			writeProblem(w, newProblem(http.StatusInternalServerError, CodeInternal, "internal error"))
		}()
		body, err := s.readBody(w, r)
		if err != nil {
			s.logger().WarnContext(r.Context(), "request body too slow", "request_id", id, "method", r.Method,
				"path", excerpt(r.URL.EscapedPath()), "timeout", s.bodyTimeout().String())
			w.Header().Set("Connection", "close") // what is left of the body is never read
			writeProblem(w, newProblem(http.StatusRequestTimeout, CodeBodyTimeout,
				"the request body did not arrive within "+s.bodyTimeout().String()+"; send it again"))
			return
		}
		if param, why := s.checkRequest(r, body); why != "" {
			s.logger().WarnContext(r.Context(), "request refused at the edge", "request_id", id, "method", r.Method,
				"path", excerpt(r.URL.EscapedPath()), "param", param, "why", why)
			writeProblem(w, newProblem(http.StatusBadRequest, CodeBadText, excerpt(param)+": "+why))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// readBody reads the first maxScannedBody bytes of r's body (the whole of
// any body the API accepts) and puts them back in front of the rest. The
// client has BodyTimeout to send them, from the end of its headers: a
// client that trickles its body holds a connection and a goroutine, so it
// is cut off there (errBodyTimeout). It returns nil for a body too large
// to check, or one cut short (the operation sees the same error).
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	if r.Body == nil || r.Body == http.NoBody {
		return nil, nil
	}
	rc := http.NewResponseController(w)
	if d := s.bodyTimeout(); d > 0 {
		_ = rc.SetReadDeadline(time.Now().Add(d)) // a connection without deadlines reads on
	}
	buf, err := io.ReadAll(io.LimitReader(r.Body, maxScannedBody+1))
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return nil, errBodyTimeout
	}
	_ = rc.SetReadDeadline(time.Time{})
	r.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(buf), r.Body), r.Body}
	if err != nil || len(buf) > maxScannedBody {
		return nil, nil // the operation reads the rest (and refuses what is too large)
	}
	return buf, nil
}

// errBodyTimeout is a request body not sent within BodyTimeout.
var errBodyTimeout = errors.New("request body not received in time")

// DefaultBodyTimeout is how long a client has to send a request's body
// when Server.BodyTimeout is zero: a megabyte at about 35 KB/s.
const DefaultBodyTimeout = 30 * time.Second

// bodyTimeout is the server's body deadline (negative: none).
func (s *Server) bodyTimeout() time.Duration {
	if s.BodyTimeout == 0 {
		return DefaultBodyTimeout
	}
	return s.BodyTimeout
}

// checkRequest returns the first parameter that fails the edge's checks
// and why ("" when none): the path, the query, the headers the API reads
// and the strings of body, the JSON body read so far (nil: none to check).
func (s *Server) checkRequest(r *http.Request, body []byte) (param, why string) {
	if strings.HasPrefix(r.URL.Path, "/api/") {
		if why := badPath(r.URL.Path); why != "" {
			return "path", why
		}
	} else if why := badText(r.URL.Path, false); why != "" {
		return "path", why
	}
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return "query", "not a valid query string (" + excerpt(err.Error()) + ")"
	}
	for k, vs := range q {
		if why := badText(k, false); why != "" {
			return "query parameter name " + strconv.Quote(excerpt(k)), why
		}
		for _, v := range vs {
			if why := badText(v, false); why != "" {
				return "query parameter " + strconv.Quote(excerpt(k)), why
			}
		}
	}
	for _, h := range checkedHeaders {
		for _, v := range r.Header.Values(h) {
			if why := badText(v, false); why != "" {
				return "header " + h, why
			}
		}
	}
	if where, why := badJSON(body); why != "" {
		return where, why
	}
	return "", ""
}

// requestIDKey is the context key of a request's id.
type requestIDKey struct{}

// requestID is the id the edge gave the request of ctx.
func requestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

// newRequestID draws a request id for a request that did not bring one.
func newRequestID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// logger is the server's logger (discarding when none is set).
func (s *Server) logger() *slog.Logger {
	if s.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return s.Logger
}

// writeProblem writes p as problem+json.
func writeProblem(w http.ResponseWriter, p *Problem) {
	w.Header().Set("Content-Type", "application/problem+json")
	w.WriteHeader(p.Status)
	_ = json.NewEncoder(w).Encode(p)
}
