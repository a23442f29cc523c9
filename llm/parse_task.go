package llm

import (
	"fmt"

	"github.com/towow/towow/domain"
)

// ---- 10 任务执行

// parseTask parses prompt 10's reply into a domain.TaskAnswer. The status
// is required and normalised (done, problem and their English and Chinese
// synonyms: 完成/已完成 → done, 问题/无法 → problem). A done answer keeps
// no problem; a problem answer without a problem takes its summary as the
// problem (a model may explain it there). The answer must then satisfy
// domain.TaskAnswer.Valid (a done task needs a summary, a problem its
// reason): otherwise the reply is invalid and the Client falls back.
func parseTask(text string, _ *TaskInput) (domain.TaskAnswer, error) {
	var raw TaskReply
	if err := decode(text, &raw, "status", "summary", "problem"); err != nil {
		return domain.TaskAnswer{}, err
	}
	status, ok := lookupEnum(taskStatuses, string(raw.Status))
	if !ok {
		return domain.TaskAnswer{}, invalid("unknown status %q", raw.Status)
	}
	out := domain.TaskAnswer{Status: status, Summary: clip(string(raw.Summary), maxTextRunes)}
	if status == domain.TaskProblem {
		out.Problem = clip(string(raw.Problem), maxTextRunes)
		if out.Problem == "" {
			out.Problem = out.Summary
		}
	}
	if err := out.Valid(); err != nil {
		return domain.TaskAnswer{}, fmt.Errorf("%w: %w", errInvalidReply, err)
	}
	return out, nil
}
