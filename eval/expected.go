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
}

// add sums g into f.
func (f *Fit) add(g Fit) {
	f.Places += g.Places
	f.Filled += g.Filled
	f.Lacking += g.Lacking
	f.CityMisses += g.CityMisses
	f.Unasked += g.Unasked
}

// fit measures plan against s's needs. willing are the agents who offered
// to take part anywhere in the tree; profile gives an agent's tags and
// location.
func fit(s Scenario, plan []negotiation.Assignment, willing []string, profile func(agentID string) (tags []string, location string)) Fit {
	var f Fit
	inPlan, used := map[string]bool{}, map[string]bool{} // used: counted for a need already
	for _, a := range plan {
		inPlan[a.AgentID] = true
	}
	inCity := func(id string) bool {
		_, loc := profile(id)
		return loc == s.City
	}
	local := s.City != "" && s.City != "远程"
	for _, n := range s.Needs {
		if len(n.CapabilityTags) == 0 {
			f.Lacking++
			continue
		}
		f.Places += n.Count
		got := 0
		for _, a := range plan {
			if got == n.Count {
				break
			}
			if used[a.AgentID] {
				continue
			}
			tags, _ := profile(a.AgentID)
			if !n.Serves(tags) {
				continue
			}
			used[a.AgentID] = true
			got++
			if local && !inCity(a.AgentID) && slices.ContainsFunc(willing, func(id string) bool {
				tags, _ := profile(id)
				return !inPlan[id] && inCity(id) && n.Serves(tags)
			}) {
				f.CityMisses++
			}
		}
		f.Filled += got
	}
	for _, a := range plan {
		tags, _ := profile(a.AgentID)
		if !slices.ContainsFunc(s.Needs, func(n negotiation.Need) bool { return n.Serves(tags) }) {
			f.Unasked++
		}
	}
	return f
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
