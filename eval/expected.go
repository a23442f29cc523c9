package eval

import (
	"hash/fnv"
	"slices"

	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/quality"
)

// The suite's two halves. Work on the brain is tuned on dev only; holdout
// is run and reported, never tuned on, so its figures say how the brain
// does on demands nobody fitted it to.
const (
	SetDev     = "dev"
	SetHoldout = "holdout"
)

// splitSeed fixes which scenarios are held out; changing it reshuffles
// the halves (and makes the holdout figures incomparable with earlier
// ones).
const splitSeed = "towow-eval-split-1"

// SetOf is the half a scenario belongs to: dev for one the brain was
// tuned on before the split (Scenario.Tuned), else by its id alone, FNV-1a
// of the seed and the id, even for dev, odd for holdout. A scenario added
// later does not move the others.
func SetOf(s Scenario) string {
	if s.Tuned {
		return SetDev
	}
	h := fnv.New32a()
	h.Write([]byte(splitSeed + "/" + s.ID))
	if h.Sum32()%2 == 0 {
		return SetDev
	}
	return SetHoldout
}

// Fit is how a tree's plan meets the needs a careful reader finds in the
// scenario (Scenario.Needs): the suite's ground truth, where the quality
// scores measure the plan against the brain's own understanding.
type Fit struct {
	// Places counts the people the needs the network can serve ask for;
	// Filled those of them an assignee whose profile serves the need
	// fills (each assignee counted once, needs in the order written).
	Places, Filled int
	// Lacking counts the needs no agent of the network can serve (written
	// without tags): they are left out of Places.
	Lacking int
	// CityMisses counts the places filled by someone outside the
	// scenario's city while an agent in that city who serves the same
	// need offered to take part and was left out.
	CityMisses int
	// Unasked counts the assignees whose profile serves none of the
	// scenario's needs: people the person did not ask for (an extra need
	// the brain read in, a photographer for a party, counts).
	Unasked int
	// Missed says why the places of Places that are not Filled are not.
	Missed Missed
}

// Missed sorts the unfilled places of a plan by the first reason that
// holds for each, in this order.
type Missed struct {
	// Unread: the brain read no need that this one's agents would serve
	// (a demand refused as unclear reads none).
	Unread int
	// Scarce: the network holds fewer agents who serve the need than it
	// asks for; no brain fills these.
	Scarce int
	// LeftOut: an agent who serves the need offered to take part, and the
	// plan left them out.
	LeftOut int
	// Unoffered: the rest. The network holds enough, but too few of them
	// were asked or offered (not shortlisted, declined, withdrew).
	Unoffered int
}

// add sums g into f.
func (f *Fit) add(g Fit) {
	f.Places += g.Places
	f.Filled += g.Filled
	f.Lacking += g.Lacking
	f.CityMisses += g.CityMisses
	f.Unasked += g.Unasked
	f.Missed.Unread += g.Missed.Unread
	f.Missed.Scarce += g.Missed.Scarce
	f.Missed.LeftOut += g.Missed.LeftOut
	f.Missed.Unoffered += g.Missed.Unoffered
}

// tree is what fit reads of a negotiation tree and of its network.
type tree struct {
	// plan is the merged plan's assignments (none when the tree ended
	// without one).
	plan []negotiation.Assignment
	// willing are the agents who offered to take part anywhere in the
	// tree; read the needs the brain understood in it (the root's and
	// every sub-demand's).
	willing []string
	read    []negotiation.Need
	// agents are every active agent of the network; profile gives an
	// agent's tags and location.
	agents  []string
	profile func(agentID string) (tags []string, location string)
}

// fit measures t's plan against s's needs.
func fit(s Scenario, t tree) Fit {
	var f Fit
	inPlan, used := map[string]bool{}, map[string]bool{} // used: counted for a need already
	for _, a := range t.plan {
		inPlan[a.AgentID] = true
	}
	serves := func(n negotiation.Need, id string) bool {
		tags, _ := t.profile(id)
		return n.Serves(tags)
	}
	inCity := func(id string) bool {
		_, loc := t.profile(id)
		return loc == s.City
	}
	local := s.City != "" && s.City != "远程"
	leftOut := map[string]bool{} // willing agents counted as left out already
	for _, n := range s.Needs {
		if len(n.CapabilityTags) == 0 {
			f.Lacking++
			continue
		}
		f.Places += n.Count
		got := 0
		for _, a := range t.plan {
			if got == n.Count {
				break
			}
			if used[a.AgentID] || !serves(n, a.AgentID) {
				continue
			}
			used[a.AgentID] = true
			got++
			if local && !inCity(a.AgentID) && slices.ContainsFunc(t.willing, func(id string) bool {
				return !inPlan[id] && inCity(id) && serves(n, id)
			}) {
				f.CityMisses++
			}
		}
		f.Filled += got
		missing := n.Count - got
		if missing == 0 {
			continue
		}
		if !slices.ContainsFunc(t.read, func(r negotiation.Need) bool { return n.Serves(r.CapabilityTags) }) {
			f.Missed.Unread += missing
			continue
		}
		held := 0
		for _, id := range t.agents {
			held += btoi(serves(n, id))
		}
		scarce := min(missing, max(0, n.Count-held))
		f.Missed.Scarce += scarce
		missing -= scarce
		for _, id := range t.willing {
			if missing > 0 && !inPlan[id] && !leftOut[id] && serves(n, id) {
				leftOut[id] = true
				f.Missed.LeftOut++
				missing--
			}
		}
		f.Missed.Unoffered += missing
	}
	for _, a := range t.plan {
		if !slices.ContainsFunc(s.Needs, func(n negotiation.Need) bool { return serves(n, a.AgentID) }) {
			f.Unasked++
		}
	}
	return f
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// readIn lists the needs the brain understood in a tree: those of the
// root demand and of every sub-demand.
func readIn(events []quality.Event) []negotiation.Need {
	var out []negotiation.Need
	for _, e := range events {
		if d, ok := e.Payload.(*negotiation.DemandUnderstood); ok {
			out = append(out, negotiation.NeedsOf(d.Understanding())...)
		}
	}
	return out
}

// willingIn lists the agents who offered to take part (participate or
// conditional) in a channel of the tree and did not withdraw from it, each
// once: who was there to be chosen.
func willingIn(events []quality.Event) []string {
	var out []string
	withdrew := map[string]bool{}
	for _, e := range events {
		if w, ok := e.Payload.(*negotiation.AgentWithdrawn); ok {
			withdrew[w.AgentID] = true
		}
	}
	for _, e := range events {
		if o, ok := e.Payload.(*negotiation.OfferSubmitted); ok && o.Decision.Participates() && !withdrew[o.AgentID] && !slices.Contains(out, o.AgentID) {
			out = append(out, o.AgentID)
		}
	}
	return out
}
