package llm

import (
	"errors"
	"fmt"
	"strings"
)

// What every prompt's parser shares. A parser (Prompt.parse) finds the
// JSON object of the reply, decodes it leniently into the prompt's reply
// shape and validates it into the prompt's result (Prompt.validate). A
// reply that has no JSON object, or whose content is unusable (an unknown
// enum, no valid agent left, ...), is an error wrapping errInvalidReply:
// the Client then records a parse_error and uses the fallback.

// errInvalidReply marks a reply that did not parse or validate.
var errInvalidReply = errors.New("invalid reply")

// invalid returns an errInvalidReply with a reason.
func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errInvalidReply, fmt.Sprintf(format, args...))
}

// decode extracts the reply's JSON object into raw.
func decode(text string, raw any, keys ...string) error {
	if err := decodeReply(text, raw, keys...); err != nil {
		return fmt.Errorf("%w: %w", errInvalidReply, err)
	}
	return nil
}

// agentIndex resolves agent ids named by a reply against the agents of the
// input: exactly (after trimming), else case-insensitively when that is
// unambiguous.
type agentIndex struct {
	names   map[string]string // id → display name
	byLower map[string]string // lower-case id → id ("" if ambiguous)
}

// newAgentIndex returns an empty index.
func newAgentIndex() *agentIndex {
	return &agentIndex{names: map[string]string{}, byLower: map[string]string{}}
}

// add registers an agent (the first display name given wins).
func (x *agentIndex) add(id, name string) {
	id = strings.TrimSpace(id)
	if id == "" {
		return
	}
	if old, ok := x.names[id]; !ok || old == "" {
		x.names[id] = strings.TrimSpace(name)
	}
	low := strings.ToLower(id)
	if prev, ok := x.byLower[low]; ok && prev != id {
		x.byLower[low] = ""
	} else {
		x.byLower[low] = id
	}
}

// resolve returns the input's id for s.
func (x *agentIndex) resolve(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if _, ok := x.names[s]; ok {
		return s, true
	}
	if id := x.byLower[strings.ToLower(s)]; id != "" {
		return id, true
	}
	return "", false
}

// empty reports whether the index has no agent.
func (x *agentIndex) empty() bool { return len(x.names) == 0 }
