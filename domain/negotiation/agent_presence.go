package negotiation

import (
	"slices"
	"strings"
	"time"

	"github.com/towow/towow/domain/event"
)

// Presence of external agents (Agent上线/下线). An external agent
// comes online with its first contact — the first request its own token
// authenticates — and goes offline when it stays silent past a window; it
// comes online again with its next contact. Twins never do either: the
// engine answers for them. The decisions are pure: the caller gives the
// folded agent and the times.

// Contact decides what a contact from the agent at time at means: a
// towow.agent.online when the agent is an active external agent that is
// not online, nothing otherwise (already online, a twin, deactivated or
// unknown).
func (a *AgentState) Contact(at time.Time) []event.Payload {
	if !a.Exists() || !a.Profile.IsExternal() || !a.Active || a.Online {
		return nil
	}
	return []event.Payload{&AgentOnline{AgentID: a.ID, AgentType: AgentTypeUserAgent,
		Capabilities: Capabilities(a.Profile), OnlineAt: at}}
}

// Silence decides whether an online agent went silent: lastContact is its
// last contact seen (zero: none recorded, and the time it came online
// counts), now the time of the check and window how long an agent may stay
// silent. It returns a towow.agent.offline once the silence reaches the
// window, nothing otherwise (not online, or heard from recently).
func (a *AgentState) Silence(lastContact, now time.Time, window time.Duration) []event.Payload {
	if !a.Exists() || !a.Online {
		return nil
	}
	last := lastContact
	if a.LastOnlineAt.After(last) {
		last = a.LastOnlineAt
	}
	if now.Sub(last) < window {
		return nil
	}
	return []event.Payload{&AgentOffline{AgentID: a.ID, Reason: SilenceReason(window),
		LastContactAt: last, OfflineAt: now}}
}

// Capabilities are a profile's capability names (the keys of its
// capabilities, sorted), or its tags when it details none.
func Capabilities(p AgentProfile) []string {
	if len(p.Capabilities) == 0 {
		return slices.Clone(p.Tags)
	}
	out := make([]string, 0, len(p.Capabilities))
	for k := range p.Capabilities {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// silencePrefix starts the reason of an agent taken offline for silence.
const silencePrefix = "silent for "

// SilenceReason is the recorded reason of an agent taken offline because
// it made no contact for window: "silent for 5m0s".
func SilenceReason(window time.Duration) string { return silencePrefix + window.String() }

// SilentFor reads a SilenceReason back: the window, and whether reason is
// one (a reason written otherwise is not).
func SilentFor(reason string) (time.Duration, bool) {
	rest, ok := strings.CutPrefix(reason, silencePrefix)
	if !ok {
		return 0, false
	}
	d, err := time.ParseDuration(rest)
	return d, err == nil
}
