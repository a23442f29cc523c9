package negotiation

import (
	"strconv"
	"strings"
)

// Stream ids. Every demand, channel and agent has a stream of its own.

// DemandStream is the event stream of a demand.
func DemandStream(demandID string) string { return "demand-" + demandID }

// ChannelStream is the event stream of a negotiation channel.
func ChannelStream(channelID string) string { return "channel-" + channelID }

// AgentStream is the event stream of an agent profile.
func AgentStream(agentID string) string { return "agent-" + agentID }

// ChannelIDFor derives a demand's channel id ("d-abc" → "collab-abc", as in
// the design's examples d-abc12345 / collab-abc12345).
func ChannelIDFor(demandID string) string {
	return "collab-" + strings.TrimPrefix(demandID, "d-")
}

// SubDemandID derives the id of the i-th (0-based) sub-demand spawned by a
// demand's channel: deterministic, so a retried step cannot spawn twice.
func SubDemandID(parentDemandID string, i int) string {
	return parentDemandID + "-" + strconv.Itoa(i+1)
}

// ProposalID names version v of a channel's proposal.
func ProposalID(channelID string, version int) string {
	return "prop-" + strings.TrimPrefix(channelID, "collab-") + "-v" + strconv.Itoa(version)
}
