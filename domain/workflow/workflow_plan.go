package workflow

import (
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/towow/towow/domain/negotiation"
)

// PlanInput is an agreement a workflow is planned from.
type PlanInput struct {
	DemandID, ChannelID, UserID string
	// Plan is the agreed plan: the merged plan of the tree when there is
	// one, else the final proposal.
	Plan negotiation.Proposal
	Now  time.Time
}

// PlanWorkflow turns an agreement into a draft workflow: a
// task node per assignment (its agent, role and responsibility), a
// milestone node per timeline milestone (in order, each after the one
// before), edges from the assignments' dependencies (an agent id, a role
// or a name of another assignment; dependencies naming nobody are left
// out, as is any that would close a cycle), and each task before the
// first milestone whose name or deliverable shares a word with its role or
// need ("场地提供者" and "确认场地"), else before the last milestone. Node ids are stable (task-1…, milestone-1…), so a retried
// step plans the same workflow.
func PlanWorkflow(in PlanInput) *WorkflowCreated {
	wf := &WorkflowCreated{WorkflowID: WorkflowIDFor(in.DemandID), DemandID: in.DemandID, ChannelID: in.ChannelID,
		UserID: in.UserID, Title: in.Plan.Summary, CreatedAt: in.Now, Nodes: []WorkflowNode{}, Edges: []WorkflowEdge{},
		Participants: []string{}}
	if wf.Title == "" {
		wf.Title = "协作方案执行"
	}
	for i, a := range in.Plan.Assignments {
		name := a.DisplayName
		if name == "" {
			name = a.AgentID
		}
		wf.Nodes = append(wf.Nodes, WorkflowNode{ID: "task-" + strconv.Itoa(i+1), Type: NodeTask, Title: a.Role + "（" + name + "）",
			Description: a.Responsibility, AssigneeID: a.AgentID, Role: a.Role, SubChannelID: a.SubChannelID})
		if !slices.Contains(wf.Participants, a.AgentID) {
			wf.Participants = append(wf.Participants, a.AgentID)
		}
	}
	tasks := len(wf.Nodes)
	add := func(from, to string) {
		e := WorkflowEdge{From: from, To: to}
		if from == to || slices.Contains(wf.Edges, e) {
			return
		}
		if _, ok := TopoOrder(wf.Nodes, append(slices.Clone(wf.Edges), e)); ok {
			wf.Edges = append(wf.Edges, e)
		}
	}
	for i, a := range in.Plan.Assignments {
		for _, dep := range a.Dependencies {
			if j := assignmentNamed(in.Plan.Assignments, dep); j >= 0 {
				add(wf.Nodes[j].ID, wf.Nodes[i].ID)
			}
		}
	}
	if tl := in.Plan.Timeline; tl != nil {
		for i, m := range tl.Milestones {
			id := "milestone-" + strconv.Itoa(i+1)
			wf.Nodes = append(wf.Nodes, WorkflowNode{ID: id, Type: NodeMilestone, Title: m.Name, Description: m.Deliverable, Due: m.Date})
			if i > 0 {
				add("milestone-"+strconv.Itoa(i), id)
			}
		}
		if n := len(tl.Milestones); n > 0 {
			for i, a := range in.Plan.Assignments {
				target := n - 1
				for k, m := range tl.Milestones {
					if mentions(m, a) {
						target = k
						break
					}
				}
				add(wf.Nodes[i].ID, wf.Nodes[tasks+target].ID)
			}
		}
	}
	layout(wf.Nodes, wf.Edges)
	return wf
}

// assignmentNamed finds the assignment a dependency names: by agent id,
// then role, then display name; -1 when none.
func assignmentNamed(as []negotiation.Assignment, dep string) int {
	dep = strings.TrimSpace(dep)
	if dep == "" {
		return -1
	}
	for _, match := range []func(negotiation.Assignment) bool{
		func(a negotiation.Assignment) bool { return a.AgentID == dep },
		func(a negotiation.Assignment) bool { return a.Role == dep || (a.Need != "" && a.Need == dep) },
		func(a negotiation.Assignment) bool { return a.DisplayName != "" && a.DisplayName == dep },
	} {
		for i, a := range as {
			if match(a) {
				return i
			}
		}
	}
	return -1
}

// mentions reports whether a milestone's name or deliverable shares a
// word of two characters or more with the assignment's need, role or
// responsibility (Chinese has no spaces: any two adjacent characters
// count, so "场地提供者" meets "确认场地"; an English word counts whole).
func mentions(m negotiation.Milestone, a negotiation.Assignment) bool {
	text := strings.ToLower(m.Name + " " + m.Deliverable)
	for _, src := range []string{a.Need, a.Role} {
		for _, w := range words(strings.ToLower(src)) {
			if strings.Contains(text, w) {
				return true
			}
		}
	}
	return false
}

// words are the ASCII words of three letters or more and the pairs of
// adjacent non-ASCII letters of s.
func words(s string) []string {
	var out []string
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		switch {
		case rs[i] > 127 && i+1 < len(rs) && rs[i+1] > 127 && unicode.IsLetter(rs[i]) && unicode.IsLetter(rs[i+1]):
			out = append(out, string(rs[i:i+2]))
		case rs[i] < 128 && unicode.IsLetter(rs[i]):
			j := i
			for j < len(rs) && rs[j] < 128 && unicode.IsLetter(rs[j]) {
				j++
			}
			if j-i >= 3 {
				out = append(out, string(rs[i:j]))
			}
			i = j - 1
		}
	}
	return out
}

// layout places nodes in columns by their depth in the graph (left to
// right) and rows in creation order.
func layout(nodes []WorkflowNode, edges []WorkflowEdge) {
	order, _ := TopoOrder(nodes, edges)
	depth := map[string]int{}
	for _, id := range order {
		for _, e := range edges {
			if e.To == id {
				depth[id] = max(depth[id], depth[e.From]+1)
			}
		}
	}
	rows := map[int]int{}
	for i := range nodes {
		d := depth[nodes[i].ID]
		nodes[i].Position = Position{X: float64(40 + 260*d), Y: float64(40 + 120*rows[d])}
		rows[d]++
	}
}
