package negotiation

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
)

// AgentTokenPrefix starts every external agent's API token, so a leaked
// token is easy to recognise (and to search for in logs and repositories).
const AgentTokenPrefix = "towow_agent_"

// AgentTokenSHA256 is the hex SHA-256 of an agent API token, as stored in
// towow.agent.token_issued (the token itself is never stored).
func AgentTokenSHA256(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// ErrBadAgentToken is an agent token that is malformed, unknown or replaced
// by a newer one.
var ErrBadAgentToken = errors.New("invalid agent token")
