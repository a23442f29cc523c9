package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/danielgtaylor/huma/v2"
)

// Personal texts (a demand's words, messages, profiles, names) are stored
// sealed, each with its data subject's key; the API reveals them on the
// way out, in every response body and every stream frame, to whoever the
// operation already let read them. Once a subject is erased, its texts
// read "[已删除]" everywhere.

// Personal reveals sealed personal texts (*personal.Keys): with escape,
// text is a JSON document and each plaintext is escaped for it.
// RevealHeld also returns whether what it revealed still holds (false once
// a key that revealed it may have been erased since), for an answer kept
// to be handed out again.
type Personal interface {
	Reveal(ctx context.Context, text string, escape bool) (string, error)
	RevealHeld(ctx context.Context, text string, escape bool) (revealed string, holds func() bool, err error)
}

// revealJSON returns data (a JSON document, or SSE frames of them) with
// its sealed texts revealed; data as it is when there is nothing to
// reveal.
func (s *Server) revealJSON(ctx context.Context, data []byte) ([]byte, error) {
	if s.Personal == nil || !bytes.Contains(data, []byte(sealedMark)) {
		return data, nil
	}
	out, err := s.Personal.Reveal(ctx, string(data), true)
	if err != nil {
		return nil, fmt.Errorf("reveal personal texts: %w", err)
	}
	return []byte(out), nil
}

// revealHeld is revealJSON for a frame kept for many clients: it also
// returns whether what it revealed still holds (nil: for good, nothing was
// sealed).
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
// texts of a body: the body as JSON, revealed, when it holds any. It runs
// last, after every transformer that works on the body's Go value.
func (s *Server) revealPersonal(hctx huma.Context, _ string, v any) (any, error) {
	if s.Personal == nil || v == nil {
		return v, nil
	}
	data, err := json.Marshal(v)
	if err != nil {
		return v, nil //nolint:nilerr // a body JSON cannot encode is the serializer's to refuse
	}
	if !bytes.Contains(data, []byte(sealedMark)) {
		return v, nil
	}
	out, err := s.revealJSON(hctx.Context(), data)
	if err != nil {
		return nil, err
	}
	return json.RawMessage(out), nil
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
