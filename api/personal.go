package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/danielgtaylor/huma/v2"
)

// Personal texts (a demand's words, messages, profiles, names) are stored
// sealed, each with its data subject's key; the API reveals them on the
// way out, in every response body and every stream frame, to whoever the
// operation already let read them. Once a subject is erased, its texts
// read "[已删除]" everywhere.

// Personal reveals sealed personal texts (*personal.Keys): with escape,
// text is a JSON document and each plaintext is escaped for it. It also
// returns whether what it revealed still holds (false once a key that
// revealed it may have been erased since; nil: for good), for an answer
// kept to be handed out again.
type Personal interface {
	RevealHeld(ctx context.Context, text string, escape bool) (revealed string, holds func() bool, err error)
}

// revealJSON returns data (a JSON document, or SSE frames of them) with
// its sealed texts revealed; data as it is when there is nothing to
// reveal.
func (s *Server) revealJSON(ctx context.Context, data []byte) ([]byte, error) {
	out, _, err := s.revealHeld(ctx, data)
	return out, err
}

// revealHeld is revealJSON that also returns whether what it revealed
// still holds (nil: for good, nothing was sealed), for a frame kept for
// many clients.
func (s *Server) revealHeld(ctx context.Context, data []byte) ([]byte, func() bool, error) {
	if s.Personal == nil || !bytes.Contains(data, []byte(sealedMark)) {
		return data, nil, nil
	}
	out, holds, err := s.Personal.RevealHeld(ctx, string(data), true)
	if err != nil {
		return nil, nil, fmt.Errorf("reveal personal texts: %w", err)
	}
	return []byte(out), holds, nil
}

// revealPersonal is the response transformer that reveals the sealed
// texts of a body: the body as JSON (encoded as the serializer would),
// revealed when it holds any. It runs last, after every transformer that
// works on the body's Go value, and hands the serializer the JSON it made
// (encodedBody), which writes it as it is: a body is encoded once.
func (s *Server) revealPersonal(hctx huma.Context, _ string, v any) (any, error) {
	if s.Personal == nil || v == nil {
		return v, nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // as huma.DefaultJSONFormat
	if err := enc.Encode(v); err != nil {
		return v, nil //nolint:nilerr // a body JSON cannot encode is the serializer's to refuse
	}
	data := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	if !bytes.Contains(data, []byte(sealedMark)) {
		return encodedBody(data), nil
	}
	out, err := s.revealJSON(hctx.Context(), data)
	if err != nil {
		return nil, err
	}
	return encodedBody(out), nil
}

// encodedBody is a response body already encoded as JSON by
// revealPersonal: jsonFormat writes it as it is.
type encodedBody []byte

// MarshalJSON returns the body as it is (for a serializer other than
// jsonFormat).
func (b encodedBody) MarshalJSON() ([]byte, error) { return b, nil }

// jsonFormat is huma.DefaultJSONFormat, except that an encodedBody is
// written as it is rather than encoded (and checked) a second time.
var jsonFormat = huma.Format{
	Marshal: func(w io.Writer, v any) error {
		if b, ok := v.(encodedBody); ok {
			if _, err := w.Write(b); err != nil {
				return err
			}
			_, err := w.Write([]byte{'\n'}) // as json.Encoder ends a value
			return err
		}
		return huma.DefaultJSONFormat.Marshal(w, v)
	},
	Unmarshal: huma.DefaultJSONFormat.Unmarshal,
}

// revealInto reveals, in place, the sealed personal texts of *v (a value
// the API compares or works on before answering, not only passes on):
// through its JSON, so any value with JSON fields will do.
func revealInto[T any](ctx context.Context, reveal func(context.Context, []byte) ([]byte, error), v *T) error {
	if reveal == nil || v == nil {
		return nil
	}
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("reveal personal texts: %w", err)
	}
	if !bytes.Contains(data, []byte(sealedMark)) {
		return nil
	}
	if data, err = reveal(ctx, data); err != nil {
		return err
	}
	var out T
	if err := json.Unmarshal(data, &out); err != nil {
		return fmt.Errorf("reveal personal texts: %w", err)
	}
	*v = out
	return nil
}
