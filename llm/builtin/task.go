package builtin

import (
	"strconv"
	"strings"

	"github.com/towow/towow/domain/workflow"
	"github.com/towow/towow/llm"
)

func init() { register(llm.Task, taskExecution) }

// Task execution (prompt 10): the assignee's twin reports on one task of
// the workflow an agreed plan became. The rule is deterministic and uses no
// seeded draw (a twin does not fail a task by chance):
//
//   - problem (time): the profile's availability is only weekdays or only
//     weekends (parseAvailability, as offers and feedback read it) and the
//     task's time is of the other kind. The task's time is its Due text
//     when that says the kind of day (周六, 周末, 工作日, a full date such as
//     2026-03-14, or such a date inside the text), else the first date its
//     description names (dateIn).
//   - problem (capability): the task's role and description name
//     capabilities of the shared vocabulary (tagOfRole: 摄影师 → 摄影;
//     tagsInText: 拍照 → 摄影, 海报 → 平面设计 …), leaving out on-site help
//     anyone can give (志愿者), and the profile covers none of them: neither
//     its tags nor its summary and capabilities (nor a speaker's theme), as
//     matchProfile decides for an offer. The role counts so that a word a
//     description mentions in passing ("熟悉议程" → 活动策划) does not fail
//     a host whose role is 主持人; a task that names no capability is
//     never a mismatch.
//   - done otherwise, with a summary built from the role, the
//     responsibility, the profile's own description of the capability, the
//     steps it built on and the due date.
//
// The time is checked first.

// anyoneCan are capabilities a description may name that need no skill.
var anyoneCan = []string{"志愿者"}

// taskExecution answers prompt 10.
func taskExecution(in *llm.TaskInput) llm.TaskReply {
	p, t := in.Profile, in.Task
	var needs []string
	for _, tag := range append(tagOfRole(t.Role), tagsInText(t.Description)...) {
		if !contains(anyoneCan, tag) && !contains(needs, tag) {
			needs = append(needs, tag)
		}
	}
	when := taskTime(t)
	d := fromUnderstanding(in.Demand, in.RawInput) // for the theme a speaker may be inferred from
	d.tags, d.date = needs, when
	m := matchProfile(p, d)

	role := strings.TrimSpace(t.Role)
	if role == "" {
		role = roleOf(orDefault(m.primary(), firstProfileTag(p)))
	}
	role = orDefault(role, "协作成员")
	duty := strings.TrimRight(strings.TrimSpace(orDefault(t.Description, t.Title)), "。；;，,. ")
	duty = orDefault(duty, "分配的任务")

	out := llm.TaskReply{}
	problem := ""
	switch {
	case m.conflict != "":
		kind := map[string]string{"weekend": "周末", "weekday": "工作日"}[dayKind(when)]
		have := "周末"
		if m.avail.weekdaysOnly {
			have = "工作日"
		}
		problem = "任务安排在" + when + "（" + kind + "），而我只有" + have + "有空（" + strings.TrimSpace(p.Availability) +
			"），无法按时完成，需要调整时间或另找人接手"
	case len(needs) > 0 && len(m.tags) == 0 && len(m.inferred) == 0:
		skills := quoteAll(normalizeTags(p.Tags))
		if skills == "" {
			skills = "档案里没有列出相关能力"
		} else {
			skills = "我的专长是" + skills
		}
		problem = "这项任务需要" + quoteAll(needs) + "，不在我的能力范围（" + skills + "），需要另找合适的人"
	}
	if problem != "" {
		out.Status = "problem"
		out.Summary = llm.Text("未完成：" + role + "——" + duty)
		out.Problem = llm.Text(problem)
		return out
	}

	s := "已完成：" + role + "——" + duty
	tag := m.primary()
	if ts := tagOfRole(role); tag == "" && len(ts) > 0 {
		tag = ts[0]
	}
	if detail := capabilityDetail(p, tag); detail != "" && !strings.Contains(duty, detail) {
		s += "（" + detail + "）"
	}
	var after []string
	if n := len(in.Before); n > 0 {
		after = append(after, "在"+strconv.Itoa(n)+"项前置步骤完成后开展")
	}
	if due := strings.TrimSpace(t.Due); due != "" {
		after = append(after, "按计划于"+due+"前交付")
	}
	if len(after) > 0 {
		s += "；" + strings.Join(after, "，")
	}
	out.Status = "done"
	out.Summary = llm.Text(s + "。")
	return out
}

// taskTime is the time of a task whose kind of day is known ("" if none):
// the Due text, or the date in it, or the first date of the description.
func taskTime(t workflow.WorkflowNode) string {
	due := strings.TrimSpace(t.Due)
	if dayKind(due) != "" {
		return due
	}
	for _, s := range []string{dateIn(due), dateIn(t.Description)} {
		if dayKind(s) != "" {
			return s
		}
	}
	return ""
}
