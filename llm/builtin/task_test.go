package builtin

import (
	"context"
	"strings"
	"testing"

	"github.com/towow/towow/domain/event"
	neg "github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/domain/workflow"
	"github.com/towow/towow/llm"
)

// venueOwner is a profile with a venue, free on weekends.
func venueOwner() neg.AgentProfile {
	return neg.AgentProfile{AgentID: "user_agent_wang", UserName: "王芳", ProfileSummary: "在望京经营共享办公空间。", Location: "北京",
		Tags: []string{"场地提供"}, Capabilities: map[string]string{"场地提供": "望京40人会议室，带投影"}, Availability: "周末可用"}
}

// designer is a profile that designs posters and does nothing else.
func designer() neg.AgentProfile {
	return neg.AgentProfile{AgentID: "user_agent_li", UserName: "李娜", ProfileSummary: "平面设计师。", Location: "北京",
		Tags: []string{"平面设计"}, Capabilities: map[string]string{"平面设计": "活动海报与主视觉"}, Availability: "时间灵活"}
}

// taskFor is a task input for p with the given role, responsibility and
// due date.
func taskFor(p neg.AgentProfile, role, duty, due string) *llm.TaskInput {
	return &llm.TaskInput{Profile: p, RawInput: "下周六在北京办一场40人的AI沙龙，需要场地和摄影", Plan: "AI 沙龙协作方案",
		Demand: neg.Understanding{SurfaceDemand: "在北京办一场40人的AI沙龙", CapabilityTags: []string{"场地提供", "摄影"}},
		Task: workflow.WorkflowNode{ID: "task-1", Type: workflow.NodeTask, Title: role + "（" + p.UserName + "）", Description: duty,
			AssigneeID: p.AgentID, Role: role, Due: due}}
}

// report asks the builtin brain through the llm client (so that its reply
// is parsed as a model's would be) and fails on a fallback.
func report(t *testing.T, in *llm.TaskInput) workflow.TaskAnswer {
	t.Helper()
	c := llm.NewClient(llm.Config{Provider: New()})
	out, rec, err := llm.Call(context.Background(), c, llm.Task, *in)
	if err != nil || rec.FallbackUsed || rec.Outcome != event.LLMOutcomeOK {
		t.Fatalf("task call: %+v, %v", rec, err)
	}
	if err := out.Valid(); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestTaskDone(t *testing.T) {
	in := taskFor(venueOwner(), "场地提供者", "提供望京40人会议室", "2026-03-14") // a Saturday
	in.Before = []workflow.NodeOutcome{{NodeID: "milestone-0", Result: workflow.NodeResult{Summary: "预算确认", By: "requester"}}}
	got := report(t, in)
	want := "已完成：场地提供者——提供望京40人会议室（望京40人会议室，带投影）；在1项前置步骤完成后开展，按计划于2026-03-14前交付。"
	if got.Status != workflow.TaskDone || got.Summary != want || got.Problem != "" {
		t.Errorf("got %+v\nwant summary %s", got, want)
	}
	// Without a role, the profile's tag names it; nothing else to say.
	plain := taskExecution(taskFor(venueOwner(), "", "提供会议室", ""))
	if plain.Status != "done" || plain.Summary != "已完成：场地提供者——提供会议室（望京40人会议室，带投影）。" || plain.Problem != "" {
		t.Errorf("no role: %+v", plain)
	}
	// A task that names no capability, and on-site help anyone can give,
	// are never a mismatch.
	for _, in := range []*llm.TaskInput{
		taskFor(designer(), "", "活动当天早点到", ""),
		taskFor(designer(), "现场志愿者", "负责签到、引导和现场秩序", ""),
		taskFor(designer(), "平面设计师", "设计海报，并确认议程上的时间", ""), // 议程 in passing
	} {
		if r := taskExecution(in); r.Status != "done" {
			t.Errorf("%s: %+v", in.Task.Description, r)
		}
	}
}

func TestTaskProblemWhenTheTimeIsExcluded(t *testing.T) {
	weekdays := venueOwner()
	weekdays.Availability = "仅工作日"
	weekends := venueOwner()
	weekends.Availability = "近期较忙，周末偶尔有空"
	tests := []struct {
		name string
		in   *llm.TaskInput
		want string
	}{
		{"weekday person, Saturday date", taskFor(weekdays, "场地提供者", "提供望京40人会议室", "2026-03-14"),
			"任务安排在2026-03-14（周末），而我只有工作日有空（仅工作日）"},
		{"weekday person, 周六 in the due text", taskFor(weekdays, "场地提供者", "提供望京40人会议室", "下周六下午两点前"),
			"任务安排在下周六下午两点前（周末），而我只有工作日有空"},
		{"weekday person, date in the description", taskFor(weekdays, "场地提供者", "周日上午提供望京40人会议室", ""),
			"任务安排在周日（周末）"},
		{"weekend person, Monday", taskFor(weekends, "场地提供者", "提供望京40人会议室", "2026-03-16 18:00"),
			"任务安排在2026-03-16（工作日），而我只有周末有空（近期较忙，周末偶尔有空）"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := report(t, tt.in)
			if got.Status != workflow.TaskProblem || !strings.Contains(got.Problem, tt.want) ||
				!strings.HasPrefix(got.Summary, "未完成：场地提供者——") {
				t.Errorf("got %+v, want a problem containing %q", got, tt.want)
			}
		})
	}
	// The same task on a day the person is free is done.
	if got := report(t, taskFor(weekdays, "场地提供者", "提供望京40人会议室", "2026-03-16")); got.Status != workflow.TaskDone {
		t.Errorf("weekday task for a weekday person: %+v", got)
	}
}

func TestTaskProblemWhenTheProfileLacksTheCapability(t *testing.T) {
	for _, role := range []string{"摄影师", ""} {
		got := report(t, taskFor(designer(), role, "全程跟拍活动照片，当天交付精选图", "2026-03-14"))
		want := "这项任务需要「摄影」，不在我的能力范围（我的专长是「平面设计」）"
		if got.Status != workflow.TaskProblem || !strings.Contains(got.Problem, want) {
			t.Errorf("role %q: got %+v, want a problem containing %q", role, got, want)
		}
	}
	// A profile without any skills says so.
	empty := neg.AgentProfile{AgentID: "user_agent_x"}
	if got := taskExecution(taskFor(empty, "摄影师", "全程跟拍", "")); got.Status != "problem" ||
		!strings.Contains(string(got.Problem), "档案里没有列出相关能力") {
		t.Errorf("empty profile: %+v", got)
	}
	// The capability a speaker's theme implies counts, as it does for an
	// offer (an AI researcher speaking at an AI salon).
	researcher := neg.AgentProfile{AgentID: "user_agent_zhao", UserName: "赵强", Tags: []string{"AI研究"}}
	if got := taskExecution(taskFor(researcher, "演讲嘉宾", "做一场30分钟的分享", "")); got.Status != "done" {
		t.Errorf("themed speaker: %+v", got)
	}
}

// TestTaskRepliesParse: every task reply of the test negotiations parses
// without a fallback, done or problem as the brain decided.
func TestTaskRepliesParse(t *testing.T) {
	reqs := allRequests(t)[llm.PromptTask]
	c := llm.NewClient(llm.Config{Provider: New()})
	var done, problem int
	for _, req := range reqs {
		in := req.Input.(*llm.TaskInput)
		out, rec, err := llm.Call(context.Background(), c, llm.Task, *in)
		if err != nil || rec.FallbackUsed {
			t.Fatalf("%s: %+v %v", in.Task.ID, rec, err)
		}
		if out.Status != workflow.TaskStatus(taskExecution(in).Status) {
			t.Errorf("%s: parsed %q", in.Task.ID, out.Status)
		}
		if out.Status == workflow.TaskDone {
			done++
		} else {
			problem++
		}
	}
	if done == 0 || problem == 0 {
		t.Errorf("%d done, %d problems: want both", done, problem)
	}
}
