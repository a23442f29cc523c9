package workflow

import (
	"fmt"

	"github.com/towow/towow/domain/event"
)

// The conversation agent reports, unasked, what needs the person or what
// happened to the run: an approval step waiting, the workflow completed
// (and how many of its steps twins only simulated), the workflow failed
// (and at which step). A report is recorded in the
// same commit as what it reports, in the language the person writes in
// (Conversation.English), in plain words: titles and names, never ids.

// ReportsFor are the reports events call for; w is the workflow after
// them, conv its conversation, and seq makes the reports' ids unique (the
// commit's expected version).
func ReportsFor(w *Workflow, conv *Conversation, events []event.Payload, seq int64) []event.Payload {
	en := conv.English()
	say := func(zh, english string) string {
		if en {
			return english
		}
		return zh
	}
	var out []event.Payload
	add := func(about, node, text string) {
		out = append(out, &ConversationReported{WorkflowID: w.ID, ReportID: fmt.Sprintf("report-%d-%d", seq, len(out)),
			About: about, NodeID: node, Text: text})
	}
	title := func(id string) string {
		if n := w.Node(id); n != nil && n.Title != "" {
			return n.Title
		}
		return say("这一步", "that step")
	}
	for _, p := range events {
		switch e := p.(type) {
		case *NodeStarted:
			n := w.Node(e.NodeID)
			if e.NodeType != NodeApproval || n == nil || w.Run(e.NodeID).Status != NodeStatusRunning {
				continue
			}
			who := w.ApproverOf(*n)
			add("approval.waiting", e.NodeID, say(
				"「"+n.Title+"」等待 "+who+" 审批：在画布上点这一步，或在「待我审批」里批准或拒绝。",
				"“"+n.Title+"” waits for "+who+"’s approval: approve or reject it on the canvas or under Approvals."))
		case *WorkflowCompleted:
			simulated := 0
			for _, r := range e.Results {
				if r.Result.Simulated {
					simulated++
				}
			}
			zh := fmt.Sprintf("执行计划「%s」已完成：%d 步都已完成。", w.Title, len(e.Results))
			en := fmt.Sprintf("The plan “%s” is done: all %d steps completed.", w.Title, len(e.Results))
			if simulated > 0 { // a rehearsal is not a fact: say so
				zh += fmt.Sprintf("其中 %d 步是数字分身模拟完成的，还没有真人确认。", simulated)
				en += fmt.Sprintf(" %d of them were simulated by digital twins and not yet confirmed by the people.", simulated)
			}
			add("workflow.completed", "", say(zh, en))
		case *WorkflowFailed:
			add("workflow.failed", e.FailedNode, say(
				"执行计划「"+w.Title+"」没有完成：「"+title(e.FailedNode)+"」失败了（"+e.Error+"）。可以修改这一步后重新执行。",
				"The plan “"+w.Title+"” did not finish: “"+title(e.FailedNode)+"” failed ("+e.Error+"). You can change that step and run it again."))
		}
	}
	return out
}
