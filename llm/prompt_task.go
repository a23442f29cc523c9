package llm

import (
	"fmt"
	"strings"

	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/domain/workflow"
)

// PromptTask is the key of prompt 10 任务执行.
const PromptTask PromptKey = "task_execution"

// Task is prompt 10 (任务执行): the assignee's twin says whether the person
// did its part of a workflow task. When the model fails the answer is a
// problem (the twin could not be reached), never done.
var Task = define(Prompt[TaskInput, TaskReply, workflow.TaskAnswer]{
	key:         PromptTask,
	system:      "你是数字分身系统，代表用户如实汇报协作任务的执行情况。以有效 JSON 格式输出。",
	maxTokens:   800,
	temperature: 0.4,
	replyKeys:   []string{"status", "summary", "problem"},
	validate:    validateTask,
	fallback:    fallbackTask,
	template: `# 任务执行汇报

## 你的身份
你是 **{{name .Profile}}** 的数字分身。
协作方案已经达成，现在轮到你负责的任务。你需要代表用户如实汇报：这项任务现在能否完成。

## 你的档案
{{profile .Profile}}

## 协作需求
{{.Demand.SurfaceDemand}}

### 需求详情
` + "```json" + `
{{json .Demand}}
` + "```" + `

### 用户原始输入
{{.RawInput}}

## 已达成的协作方案
{{if .Plan}}{{.Plan}}{{else}}未提供方案摘要{{end}}

## 你负责的任务
- 任务：{{if .Task.Title}}{{.Task.Title}}{{else}}未命名{{end}}
- 角色：{{if .Task.Role}}{{.Task.Role}}{{else}}未说明{{end}}
- 职责：{{if .Task.Description}}{{.Task.Description}}{{else}}未说明{{end}}
- 截止时间：{{if .Task.Due}}{{.Task.Due}}{{else}}未说明{{end}}

## 前置步骤的结果
{{if .Before}}{{range .Before}}- {{.NodeID}}：{{if .Result.Summary}}{{.Result.Summary}}{{else}}已完成{{end}}{{if .Result.By}}（{{.Result.By}}）{{end}}
{{end}}{{else}}这项任务没有需要等待的前置步骤。
{{end}}
## 执行判断

请站在 {{name .Profile}} 的角度如实判断：
1. 这项职责是否在你的能力范围内？
2. 任务时间与你的可用时间是否冲突？
3. 前置步骤的结果是否足以让你开始？
4. 你现在能否完成这项任务？

不要声称完成了做不到的事：只要有一项不满足，就如实说明问题。

## 输出要求

请以 JSON 格式输出你的汇报：

` + "```json" + `
{
  "status": "done | problem",
  "summary": "完成了什么（done 时必填，具体说明交付的内容）",
  "problem": "遇到的问题、无法完成的原因（problem 时必填）"
}
` + "```" + `

## 状态说明

- **done**: 已完成，在 summary 中具体说明做了什么、交付了什么
- **problem**: 无法完成或受阻，在 problem 中说明原因（summary 可说明已做的部分）

注意：请站在 {{name .Profile}} 的角度汇报，只输出一个 JSON 对象。
`,
})

// TaskInput is prompt 10's input: the assignee's twin reporting on one
// task of the workflow an agreed plan became, whether the person did its
// part.
type TaskInput struct {
	Profile  negotiation.AgentProfile  `json:"agent_profile"` // the assignee
	Demand   negotiation.Understanding `json:"demand"`
	RawInput string                    `json:"raw_input"`
	Plan     string                    `json:"plan"` // the agreed plan's summary
	// Task is the task node: its title, role, responsibility (Description)
	// and due date as the plan wrote it.
	Task workflow.WorkflowNode `json:"task"`
	// Before are the results of the steps the task waits for (empty when
	// it waits for none).
	Before []workflow.NodeOutcome `json:"before,omitempty"`
}

// TaskReply is prompt 10's reply (任务执行): whether the assignee did its
// part of a workflow task, what it did, or what stands in the way.
type TaskReply struct {
	Status  Text `json:"status"` // done | problem
	Summary Text `json:"summary"`
	Problem Text `json:"problem"`
}

// taskStatuses are the words a reply to prompt 10 may use for its status.
var taskStatuses = map[string]workflow.TaskStatus{
	"done": workflow.TaskDone, "completed": workflow.TaskDone, "complete": workflow.TaskDone,
	"finished": workflow.TaskDone, "success": workflow.TaskDone, "succeeded": workflow.TaskDone,
	"delivered": workflow.TaskDone, "ok": workflow.TaskDone, "完成": workflow.TaskDone,
	"已完成": workflow.TaskDone, "完成了": workflow.TaskDone, "做完": workflow.TaskDone,
	"已做完": workflow.TaskDone, "办妥": workflow.TaskDone, "已办妥": workflow.TaskDone,
	"交付": workflow.TaskDone, "已交付": workflow.TaskDone, "成功": workflow.TaskDone,

	"problem": workflow.TaskProblem, "problems": workflow.TaskProblem, "issue": workflow.TaskProblem,
	"blocked": workflow.TaskProblem, "failed": workflow.TaskProblem, "failure": workflow.TaskProblem,
	"fail": workflow.TaskProblem, "error": workflow.TaskProblem, "cannot": workflow.TaskProblem,
	"cant": workflow.TaskProblem, "notdone": workflow.TaskProblem, "incomplete": workflow.TaskProblem,
	"问题": workflow.TaskProblem, "有问题": workflow.TaskProblem, "无法": workflow.TaskProblem,
	"无法完成": workflow.TaskProblem, "未完成": workflow.TaskProblem, "没完成": workflow.TaskProblem,
	"失败": workflow.TaskProblem, "受阻": workflow.TaskProblem, "阻塞": workflow.TaskProblem,
	"遇到问题": workflow.TaskProblem,
}

// validateTask validates prompt 10's reply into a workflow.TaskAnswer. The
// status is required and normalised (done, problem and their English and
// Chinese synonyms: 完成/已完成 → done, 问题/无法 → problem). A done answer keeps no
// problem; a problem answer without a problem takes its summary as the
// problem (a model may explain it there). The answer must then satisfy
// workflow.TaskAnswer.Valid (a done task needs a summary, a problem its
// reason): otherwise the reply is invalid and the Client falls back.
func validateTask(raw *TaskReply, _ *TaskInput) (workflow.TaskAnswer, error) {
	status, ok := lookupEnum(taskStatuses, string(raw.Status))
	if !ok {
		return workflow.TaskAnswer{}, invalid("unknown status %q", raw.Status)
	}
	out := workflow.TaskAnswer{Status: status, Summary: clip(string(raw.Summary), maxTextRunes)}
	if status == workflow.TaskProblem {
		out.Problem = clip(string(raw.Problem), maxTextRunes)
		if out.Problem == "" {
			out.Problem = out.Summary
		}
	}
	if err := out.Valid(); err != nil {
		return workflow.TaskAnswer{}, fmt.Errorf("%w: %w", errInvalidReply, err)
	}
	return out, nil
}

// fallbackTask: a problem, the assignee's twin could not be reached. It
// never says the task was done: only the person (or a working twin) can.
func fallbackTask(in *TaskInput) workflow.TaskAnswer {
	who := profileName(in.Profile)
	if who == "" {
		who = strings.TrimSpace(in.Task.AssigneeID)
	}
	if who == "" {
		who = "负责人"
	}
	return workflow.TaskAnswer{
		Status:  workflow.TaskProblem,
		Problem: "无法联系" + who + "的数字分身，未能确认任务是否完成（fallback: " + fallbackReason + "）",
	}
}
