package llm_test

import (
	"context"
	"fmt"
	"time"

	"github.com/towow/towow/llm"
)

// canned is a Provider that always gives the same reply.
type canned string

func (canned) Name() string  { return "canned" }
func (canned) Model() string { return "canned-1" }
func (c canned) Complete(context.Context, llm.Request) (llm.Response, error) {
	return llm.Response{Text: string(c)}, nil
}

func ExampleCall() {
	reply := "好的，这是我的反馈：\n```json\n" +
		`{"feedback_type": "协商", "reasoning": "时间太早", "adjustment_request": "改到下午", "confidence": 0.8}` +
		"\n```"
	c := llm.NewClient(llm.Config{Provider: canned(reply), Timeout: 5 * time.Second})
	fb, call, err := llm.Call(context.Background(), c, llm.Feedback, llm.FeedbackInput{Round: 1, MaxRounds: 5})
	if err != nil {
		return // only when the context is done
	}
	fmt.Println(fb.FeedbackType, fb.AdjustmentRequest, fb.Confidence)
	fmt.Println(call.PromptKey, call.Provider, call.Outcome, call.FallbackUsed)
	// Output:
	// negotiate 改到下午 80
	// proposal_feedback canned ok false
}

func ExampleCall_fallback() {
	// Without a provider (or with a failing one) every prompt falls back to
	// a deterministic answer built from its input.
	c := llm.NewClient(llm.Config{})
	u, call, _ := llm.Call(context.Background(), c, llm.Understand, llm.UnderstandInput{RawInput: "周末想找一位摄影师拍读书会"})
	fmt.Println(u.SurfaceDemand, u.CapabilityTags, u.Confidence)
	fmt.Println(call.Outcome, call.FallbackUsed, call.Error)
	// Output:
	// 周末想找一位摄影师拍读书会 [摄影] low
	// error true llm: no provider configured
}

func ExampleCall_task() {
	// The assignee's twin reports on a workflow task; 已完成 is done. Had
	// the model failed, the answer would be a problem, never done.
	c := llm.NewClient(llm.Config{Provider: canned(`{"status": "已完成", "summary": "下午做了 30 分钟分享"}`)})
	a, call, err := llm.Call(context.Background(), c, llm.Task, llm.TaskInput{})
	if err != nil {
		return
	}
	fmt.Println(a.Status, a.Summary)
	fmt.Println(call.PromptKey, call.Outcome, call.FallbackUsed)
	// Output:
	// done 下午做了 30 分钟分享
	// task_execution ok false
}

func ExampleCall_converse() {
	// One step of the conversation agent: a tool with its arguments (the
	// engine runs it and calls again with the observation), or a reply.
	// Had the model failed, the step would be a reply saying it cannot
	// work on the request now, never an action.
	c := llm.NewClient(llm.Config{Provider: canned(`{"thought": "用户要开始执行", "tool": "Execute-Workflow", "args": {}, "confidence": 0.9}`)})
	step, call, err := llm.Call(context.Background(), c, llm.Converse, llm.ConverseInput{Message: "开始执行"})
	if err != nil {
		return
	}
	fmt.Println(step.Tool, step.Confidence, step.Reply == "")
	fmt.Println(call.PromptKey, call.Outcome, call.FallbackUsed)
	// Output:
	// execute_workflow 0.9 true
	// conversation ok false
}
