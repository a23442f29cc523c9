package llm

import (
	"errors"
	"strings"
	"testing"

	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/domain/workflow"
)

func TestParseTask(t *testing.T) {
	in := sampleTaskInput()
	tests := []struct {
		name, reply string
		want        workflow.TaskAnswer
		fail        bool
	}{
		{name: "valid done", reply: replyTask,
			want: workflow.TaskAnswer{Status: workflow.TaskDone, Summary: "已完成：演讲嘉宾——3 月 14 日下午做了 30 分钟大模型落地分享，并回答了现场提问"}},
		{name: "done drops a problem", reply: `{"status":"done","summary":"讲完了","problem":"无"}`,
			want: workflow.TaskAnswer{Status: workflow.TaskDone, Summary: "讲完了"}},
		{name: "valid problem", reply: `{"status":"problem","summary":"讲稿已准备","problem":"3 月 14 日临时出差，无法到场"}`,
			want: workflow.TaskAnswer{Status: workflow.TaskProblem, Summary: "讲稿已准备", Problem: "3 月 14 日临时出差，无法到场"}},
		{name: "fenced, upper case", reply: "汇报如下：\n```json\n{\"status\": \" DONE \", \"summary\": \" 分享完成 \"}\n```",
			want: workflow.TaskAnswer{Status: workflow.TaskDone, Summary: "分享完成"}},
		{name: "Chinese 已完成", reply: `{"status":"已完成","summary":"分享完成"}`,
			want: workflow.TaskAnswer{Status: workflow.TaskDone, Summary: "分享完成"}},
		{name: "Chinese 完成", reply: `{"status":"完成","summary":"分享完成"}`,
			want: workflow.TaskAnswer{Status: workflow.TaskDone, Summary: "分享完成"}},
		{name: "Chinese 问题", reply: `{"status":"问题","problem":"场地没有投影"}`,
			want: workflow.TaskAnswer{Status: workflow.TaskProblem, Problem: "场地没有投影"}},
		{name: "Chinese 无法", reply: `{"status":"无法","problem":"时间冲突"}`,
			want: workflow.TaskAnswer{Status: workflow.TaskProblem, Problem: "时间冲突"}},
		{name: "English synonym", reply: `{"status":"Blocked","problem":"等待场地确认"}`,
			want: workflow.TaskAnswer{Status: workflow.TaskProblem, Problem: "等待场地确认"}},
		{name: "problem told in the summary", reply: `{"status":"problem","summary":"时间冲突，去不了"}`,
			want: workflow.TaskAnswer{Status: workflow.TaskProblem, Summary: "时间冲突，去不了", Problem: "时间冲突，去不了"}},
		{name: "missing summary", reply: `{"status":"done","problem":""}`, fail: true},
		{name: "blank summary", reply: `{"status":"done","summary":"   "}`, fail: true},
		{name: "problem without a reason", reply: `{"status":"problem","summary":"","problem":""}`, fail: true},
		{name: "unknown status", reply: `{"status":"maybe","summary":"s"}`, fail: true},
		{name: "the schema's alternatives", reply: `{"status":"done | problem","summary":"s"}`, fail: true},
		{name: "missing status", reply: `{"summary":"s"}`, fail: true},
		{name: "garbage", reply: `我已经尽力了`, fail: true},
		{name: "truncated", reply: `{"status":"done","summary":"讲`, fail: true},
		{name: "empty object", reply: `{}`, fail: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Task.parse(tt.reply, &in)
			if tt.fail {
				if !errors.Is(err, errInvalidReply) {
					t.Fatalf("err = %v, want errInvalidReply (got %+v)", err, got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
			if ps := checkTask(&in, got); ps != nil {
				t.Error(ps)
			}
		})
	}
	// A reply that does not validate says why, and is the domain's error.
	_, err := Task.parse(`{"status":"done"}`, &in)
	if !errors.Is(err, negotiation.ErrInvalidAnswer) || !strings.Contains(err.Error(), "summary") {
		t.Errorf("err = %v, want the domain's invalid answer naming the summary", err)
	}
}

func TestTaskStatusNormalization(t *testing.T) {
	for s, want := range map[string]workflow.TaskStatus{
		"done": "done", "Completed": "done", "完成": "done", "已完成": "done", "已交付": "done",
		"problem": "problem", "问题": "problem", "有问题": "problem", "无法": "problem", "无法完成": "problem",
		"未完成": "problem", "can't": "problem", "FAILED": "problem",
	} {
		if got, ok := lookupEnum(taskStatuses, s); !ok || got != want {
			t.Errorf("status %q = %q, %v; want %q", s, got, ok, want)
		}
	}
	for _, s := range []string{"", "maybe", "done|problem", "进行中"} {
		if _, ok := lookupEnum(taskStatuses, s); ok {
			t.Errorf("status %q accepted", s)
		}
	}
}

// TestFallbackTask: when the twin cannot answer, the task is a problem
// saying so, never done.
func TestFallbackTask(t *testing.T) {
	in := sampleTaskInput()
	got := Task.fallback(&in)
	if got.Status != workflow.TaskProblem || got.Summary != "" || got.Valid() != nil ||
		!strings.Contains(got.Problem, "无法联系Alice的数字分身") || !strings.Contains(got.Problem, fallbackReason) {
		t.Errorf("fallback = %+v", got)
	}
	zero := Task.fallback(&TaskInput{Task: workflow.WorkflowNode{AssigneeID: "user_agent_x"}})
	if zero.Status != workflow.TaskProblem || !strings.Contains(zero.Problem, "user_agent_x") {
		t.Errorf("fallback without a profile = %+v", zero)
	}
	if f := Task.fallback(&TaskInput{}); f.Valid() != nil || !strings.Contains(f.Problem, "负责人") {
		t.Errorf("fallback of a zero input = %+v", f)
	}

	// Through the Client: a failing provider gives that answer, recorded
	// as a fallback.
	c := newTestClient(&scripted{fn: fail}, Config{})
	out, rec, err := Call(t.Context(), c, Task, in)
	if err != nil || out != got || !rec.FallbackUsed || rec.PromptKey != string(PromptTask) {
		t.Errorf("Task with a failing provider = %+v, %+v, %v", out, rec, err)
	}
}
