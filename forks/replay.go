package forks

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/internal/sqlcdb"
	"github.com/towow/towow/llm"
)

// Middleware is the River middleware of fork replay: every step of a
// forked tree runs with replayContext.
func (e *Forks) Middleware() rivertype.Middleware {
	return river.WorkerMiddlewareFunc(func(ctx context.Context, job *rivertype.JobRow, doInner func(context.Context) error) error {
		return doInner(e.replayContext(ctx, job.EncodedArgs))
	})
}

// replayContext asks for reuse of recorded LLM answers when the step works
// on a forked tree (named by its arguments): the fork's ids are mapped to
// the original's, and the answers are looked up in the original's events.
func (e *Forks) replayContext(ctx context.Context, encodedArgs []byte) context.Context {
	var ids struct {
		DemandID        string `json:"demand_id"`
		ChannelID       string `json:"channel_id"`
		ParentChannelID string `json:"parent_channel_id"`
		WorkflowID      string `json:"workflow_id"`
	}
	if json.Unmarshal(encodedArgs, &ids) != nil {
		return ctx
	}
	tree := ""
	for _, id := range []string{ids.DemandID, ids.ChannelID, ids.ParentChannelID, ids.WorkflowID} {
		if _, rest, ok := strings.Cut(id, "-"); ok && rest != "" {
			tree, _, _ = strings.Cut(rest, "-")
			break
		}
	}
	if tree == "" {
		return ctx
	}
	origin, err := e.forkOrigin(ctx, tree)
	if err != nil || origin == "" {
		return ctx
	}
	oldTree := negotiation.ForkTreeID(origin)
	return llm.WithReuse(ctx, recordedAnswers{e: e, root: origin, from: oldTree, to: tree},
		func(s string) string { return strings.ReplaceAll(s, tree, oldTree) })
}

// forkOrigin is the root demand a tree was forked from ("" when it is no
// fork), cached once the tree's root demand exists (a fork's marker is in
// the commit that creates it).
func (e *Forks) forkOrigin(ctx context.Context, tree string) (string, error) {
	if v, ok := e.origins.Load(tree); ok {
		return v.(string), nil
	}
	d := &negotiation.DemandState{}
	_, err := e.u.Fold(ctx, e.store, negotiation.DemandStream("d-"+tree), d.Apply)
	if err != nil || !d.Exists() {
		return "", err
	}
	origin := ""
	if d.Fork != nil {
		origin = d.Fork.ForkedFrom
	}
	e.origins.Store(tree, origin)
	return origin, nil
}

// recordedAnswers finds the answers of a tree's recorded LLM calls, with
// the original tree's id part (from) replaced by the fork's (to).
type recordedAnswers struct {
	e        *Forks
	root     string
	from, to string
}

// Answer implements llm.Recorded.
func (r recordedAnswers) Answer(ctx context.Context, key llm.PromptKey, inputHash string) (string, bool, error) {
	answers, err := sqlcdb.New(r.e.pool).RecordedLLMAnswer(ctx, sqlcdb.RecordedLLMAnswerParams{DemandID: r.root,
		PromptKey: string(key), InputHash: inputHash})
	if err != nil {
		return "", false, fmt.Errorf("recorded answer: %w", err)
	}
	if len(answers) == 0 {
		return "", false, nil
	}
	answer, err := r.e.store.Reveal(ctx, answers[0]) // recorded sealed
	if err != nil {
		return "", false, fmt.Errorf("recorded answer: %w", err)
	}
	return strings.ReplaceAll(answer, r.from, r.to), true, nil
}
