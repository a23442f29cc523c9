package negotiation

import "slices"

// PlanDiff is what changed from one plan to another (a fork's or any two
// negotiations' comparison):
// the assignments only one of them has, by agent, those both have with
// other terms, and the gaps each one leaves that the other does not.
type PlanDiff struct {
	// Added are the right plan's assignments of agents the left one does
	// not assign; Removed the left plan's of agents the right one does
	// not.
	Added   []Assignment `json:"added"`
	Removed []Assignment `json:"removed"`
	// Changed are the agents both plans assign, with other terms.
	Changed []AssignmentChange `json:"changed"`
	// GapsClosed are the left plan's gaps the right one does not leave;
	// GapsOpened the right one's the left does not.
	GapsClosed []string `json:"gaps_closed"`
	GapsOpened []string `json:"gaps_opened"`
}

// AssignmentChange is one agent's assignment in both plans, with the
// fields that differ (role, need, responsibility, dependencies,
// conditions_accepted).
type AssignmentChange struct {
	AgentID string     `json:"agent_id"`
	Fields  []string   `json:"fields"`
	Left    Assignment `json:"left"`
	Right   Assignment `json:"right"`
}

// Same reports whether the two plans assign the same agents on the same
// terms and leave the same gaps.
func (d PlanDiff) Same() bool {
	return len(d.Added)+len(d.Removed)+len(d.Changed)+len(d.GapsClosed)+len(d.GapsOpened) == 0
}

// DiffPlans compares two plans (nil: no plan, nothing assigned). An agent
// assigned twice in a plan is compared by its first assignment.
func DiffPlans(left, right *Proposal) PlanDiff {
	d := PlanDiff{Added: []Assignment{}, Removed: []Assignment{}, Changed: []AssignmentChange{}, GapsClosed: []string{}, GapsOpened: []string{}}
	var la, ra []Assignment
	var lg, rg []string
	if left != nil {
		la, lg = left.Assignments, left.Gaps
	}
	if right != nil {
		ra, rg = right.Assignments, right.Gaps
	}
	find := func(as []Assignment, id string) *Assignment {
		if i := slices.IndexFunc(as, func(a Assignment) bool { return a.AgentID == id }); i >= 0 {
			return &as[i]
		}
		return nil
	}
	for i, a := range la {
		if slices.IndexFunc(la[:i], func(x Assignment) bool { return x.AgentID == a.AgentID }) >= 0 {
			continue
		}
		r := find(ra, a.AgentID)
		if r == nil {
			d.Removed = append(d.Removed, a)
			continue
		}
		if fields := assignmentFieldsDiffer(a, *r); len(fields) > 0 {
			d.Changed = append(d.Changed, AssignmentChange{AgentID: a.AgentID, Fields: fields, Left: a, Right: *r})
		}
	}
	for i, a := range ra {
		if find(la, a.AgentID) == nil && slices.IndexFunc(ra[:i], func(x Assignment) bool { return x.AgentID == a.AgentID }) < 0 {
			d.Added = append(d.Added, a)
		}
	}
	for _, g := range lg {
		if !slices.Contains(rg, g) && !slices.Contains(d.GapsClosed, g) {
			d.GapsClosed = append(d.GapsClosed, g)
		}
	}
	for _, g := range rg {
		if !slices.Contains(lg, g) && !slices.Contains(d.GapsOpened, g) {
			d.GapsOpened = append(d.GapsOpened, g)
		}
	}
	return d
}

// assignmentFieldsDiffer names the terms two assignments of one agent
// differ in (not the display name, the notes or where it came from).
func assignmentFieldsDiffer(a, b Assignment) []string {
	var out []string
	for _, f := range []struct {
		name string
		same bool
	}{
		{"role", a.Role == b.Role},
		{"need", a.Need == b.Need},
		{"responsibility", a.Responsibility == b.Responsibility},
		{"dependencies", slices.Equal(a.Dependencies, b.Dependencies)},
		{"conditions_accepted", a.ConditionsAccepted == b.ConditionsAccepted},
	} {
		if !f.same {
			out = append(out, f.name)
		}
	}
	return out
}
