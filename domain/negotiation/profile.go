package negotiation

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ErrInvalidProfile is matched (with [errors.Is]) by every error of
// [ValidateProfile] and by every [ProfileError].
var ErrInvalidProfile = errors.New("invalid agent profile")

// Limits enforced by [ValidateProfile]. Lengths are counted in runes
// (characters), not bytes.
const (
	MaxAgentIDLen        = 64   // agent_id (at least 3)
	MaxUserNameLen       = 64   // user_name
	MaxProfileSummaryLen = 2000 // profile_summary
	MaxLocationLen       = 64   // location
	MaxTags              = 20   // number of tags (at least 1)
	MaxTagLen            = 32   // one tag
	MaxCapabilities      = 20   // number of capabilities entries
	MaxCapabilityKeyLen  = 32   // one capabilities key
	MaxCapabilityLen     = 500  // one capabilities value
	MaxInterests         = 20   // number of interests
	MaxInterestLen       = 32   // one interest
	MaxAvailabilityLen   = 200  // availability
)

// ProfileError reports why one entry of a profile list was rejected by
// [ParseProfiles]. Index is the entry's position in the JSON array (from 0),
// or -1 when the list as a whole is unusable (not a JSON array). AgentID is
// the entry's agent_id when it could be read, else empty.
type ProfileError struct {
	Index   int
	AgentID string
	Reason  string
}

// Error formats the error as `profile #7 (user_agent_x): tags: empty`,
// `profile #7: ...` when the agent_id is unknown, or `profile list: ...` for
// Index -1.
func (e *ProfileError) Error() string {
	switch {
	case e.Index < 0:
		return "profile list: " + e.Reason
	case e.AgentID == "":
		return fmt.Sprintf("profile #%d: %s", e.Index, e.Reason)
	default:
		return fmt.Sprintf("profile #%d (%s): %s", e.Index, e.AgentID, e.Reason)
	}
}

// Is reports whether target is [ErrInvalidProfile].
func (e *ProfileError) Is(target error) bool { return target == ErrInvalidProfile }

// invalidProfile is the error type of ValidateProfile: a message of the form
// "<field>: <problem>" that matches ErrInvalidProfile.
type invalidProfile struct{ msg string }

func (e *invalidProfile) Error() string { return e.msg }

func (e *invalidProfile) Is(target error) bool { return target == ErrInvalidProfile }

func invalidProfilef(format string, args ...any) error {
	return &invalidProfile{msg: fmt.Sprintf(format, args...)}
}

// NormalizeProfile returns a copy of p with leading and trailing white space
// removed from every text: agent_id, user_name, profile_summary, location,
// each tag, each capabilities key and value, each interest, availability and
// mode. It does not drop empty entries or duplicates (so that
// [ValidateProfile] can report them) and does not change letter case.
//
// The mode is not defaulted: an empty mode stays empty, which already means
// [AgentModeTwin] (see [AgentProfile.IsExternal]), so a profile read from a
// file re-encodes as it was written.
//
// If two capabilities keys become equal once trimmed (e.g. "场地" and
// "场地 "), the untrimmed keys are kept as they were so that ValidateProfile
// rejects the profile instead of one value being silently lost.
//
// p is not modified: slices and the map are copied.
func NormalizeProfile(p AgentProfile) AgentProfile {
	q := p
	q.AgentID = strings.TrimSpace(p.AgentID)
	q.UserName = strings.TrimSpace(p.UserName)
	q.ProfileSummary = strings.TrimSpace(p.ProfileSummary)
	q.Location = strings.TrimSpace(p.Location)
	q.Tags = trimProfileStrings(p.Tags)
	q.Interests = trimProfileStrings(p.Interests)
	q.Availability = strings.TrimSpace(p.Availability)
	q.Mode = AgentMode(strings.TrimSpace(string(p.Mode)))
	if p.Capabilities != nil {
		seen := make(map[string]int, len(p.Capabilities))
		for k := range p.Capabilities {
			seen[strings.TrimSpace(k)]++
		}
		q.Capabilities = make(map[string]string, len(p.Capabilities))
		for k, v := range p.Capabilities {
			if tk := strings.TrimSpace(k); seen[tk] == 1 {
				k = tk
			}
			q.Capabilities[k] = strings.TrimSpace(v)
		}
	}
	return q
}

func trimProfileStrings(s []string) []string {
	if s == nil {
		return nil
	}
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = strings.TrimSpace(v)
	}
	return out
}

// ValidateProfile checks one profile and returns the first problem found as
// an error of the form "<field>: <problem>" (e.g. "tags[2]: empty"), which
// matches [ErrInvalidProfile]; nil if the profile is valid. It expects a
// normalized profile (see [NormalizeProfile]): text with leading or trailing
// white space is rejected. The rules:
//
//   - agent_id matches ^[a-z][a-z0-9_]{2,63}$: lowercase ASCII letters,
//     digits and underscores, starting with a letter, 3 to 64 characters.
//     The "user_agent_<name>" form (used by all mock profiles)
//     is not required, so that external agents registered later through the
//     API may choose other identifiers.
//   - user_name: non-empty, at most 64 characters, one line.
//   - profile_summary: non-empty, at most 2000 characters; may span lines.
//   - location: non-empty, at most 64 characters, one line. Any place name is
//     accepted (北京, 远程, ...).
//   - tags: 1 to 20, each non-empty, at most 32 characters, one line, no
//     duplicates (compared ignoring letter case).
//   - capabilities (optional): at most 20 entries; keys non-empty, at most
//     32 characters, one line; values non-empty, at most 500 characters.
//   - interests (optional): at most 20, each non-empty, at most 32
//     characters, one line, no duplicates (ignoring letter case).
//   - availability (optional): at most 200 characters, one line.
//   - mode: empty (meaning twin), "twin" or "external".
//
// All texts must be valid UTF-8 without control characters; the multi-line
// texts (profile_summary, capabilities values) may contain newlines and tabs.
func ValidateProfile(p AgentProfile) error {
	if err := checkProfileAgentID(p.AgentID); err != nil {
		return err
	}
	if err := checkProfileText("user_name", p.UserName, MaxUserNameLen, true, false); err != nil {
		return err
	}
	if err := checkProfileText("profile_summary", p.ProfileSummary, MaxProfileSummaryLen, true, true); err != nil {
		return err
	}
	if err := checkProfileText("location", p.Location, MaxLocationLen, true, false); err != nil {
		return err
	}
	if len(p.Tags) == 0 {
		return invalidProfilef("tags: empty")
	}
	if err := checkProfileList("tags", p.Tags, MaxTags, MaxTagLen); err != nil {
		return err
	}
	if err := checkProfileCapabilities(p.Capabilities); err != nil {
		return err
	}
	if err := checkProfileList("interests", p.Interests, MaxInterests, MaxInterestLen); err != nil {
		return err
	}
	if err := checkProfileText("availability", p.Availability, MaxAvailabilityLen, false, false); err != nil {
		return err
	}
	switch p.Mode {
	case "", AgentModeTwin, AgentModeExternal:
	default:
		return invalidProfilef("mode: %q is not %q or %q", p.Mode, AgentModeTwin, AgentModeExternal)
	}
	return nil
}

func checkProfileAgentID(id string) error {
	if id == "" {
		return invalidProfilef("agent_id: empty")
	}
	if len(id) < 3 || len(id) > MaxAgentIDLen {
		return invalidProfilef("agent_id: %q must be 3 to %d characters long", id, MaxAgentIDLen)
	}
	if id[0] < 'a' || id[0] > 'z' {
		return invalidProfilef("agent_id: %q must start with a lowercase letter a-z", id)
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '_' {
			return invalidProfilef("agent_id: %q may contain only a-z, 0-9 and _", id)
		}
	}
	return nil
}

// checkProfileText checks one text field. required: it may not be empty;
// multiline: newlines and tabs are allowed.
func checkProfileText(field, s string, maxLen int, required, multiline bool) error {
	if s == "" {
		if required {
			return invalidProfilef("%s: empty", field)
		}
		return nil
	}
	if !utf8.ValidString(s) {
		return invalidProfilef("%s: not valid UTF-8", field)
	}
	if strings.TrimSpace(s) != s {
		return invalidProfilef("%s: leading or trailing white space", field)
	}
	if n := utf8.RuneCountInString(s); n > maxLen {
		return invalidProfilef("%s: %d characters, at most %d allowed", field, n, maxLen)
	}
	for _, r := range s {
		if multiline && (r == '\n' || r == '\r' || r == '\t') {
			continue
		}
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return invalidProfilef("%s: contains control character %U", field, r)
		}
	}
	return nil
}

// checkProfileList checks a list of short one-line texts without duplicates.
func checkProfileList(field string, list []string, maxN, maxLen int) error {
	if len(list) > maxN {
		return invalidProfilef("%s: %d entries, at most %d allowed", field, len(list), maxN)
	}
	seen := make(map[string]int, len(list))
	for i, s := range list {
		name := fmt.Sprintf("%s[%d]", field, i)
		if err := checkProfileText(name, s, maxLen, true, false); err != nil {
			return err
		}
		key := strings.ToLower(s)
		if j, dup := seen[key]; dup {
			return invalidProfilef("%s: %q duplicates %s[%d]", name, s, field, j)
		}
		seen[key] = i
	}
	return nil
}

func checkProfileCapabilities(caps map[string]string) error {
	if len(caps) > MaxCapabilities {
		return invalidProfilef("capabilities: %d entries, at most %d allowed", len(caps), MaxCapabilities)
	}
	keys := make([]string, 0, len(caps))
	for k := range caps {
		keys = append(keys, k)
	}
	sort.Strings(keys) // report the same problem every time
	for _, k := range keys {
		if k == "" {
			return invalidProfilef("capabilities: empty key")
		}
		if err := checkProfileText(fmt.Sprintf("capabilities key %q", k), k, MaxCapabilityKeyLen, true, false); err != nil {
			return err
		}
		if err := checkProfileText(fmt.Sprintf("capabilities[%q]", k), caps[k], MaxCapabilityLen, true, true); err != nil {
			return err
		}
	}
	return nil
}

// ParseProfiles decodes data, a JSON array of agent profiles such as
// data/mock_profiles.json. Each entry is decoded, normalized
// ([NormalizeProfile]) and validated ([ValidateProfile]) on its own. A broken
// entry is reported with its index and reason and skipped; the others are
// returned in their order. An entry is broken if it is not a JSON object,
// has an unknown field or a field of the wrong JSON type, fails validation,
// or has the agent_id of an earlier entry that was loaded (an earlier entry
// that was itself rejected does not count).
//
// A body that is not a single JSON array (including a JSON syntax error
// anywhere in it) is reported as one error with Index -1, and no profile is
// returned. An empty array yields no profiles and no errors. The returned
// errors are nil when every entry loaded.
func ParseProfiles(data []byte) ([]AgentProfile, []*ProfileError) {
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if len(trimmed) == 0 || trimmed[0] != '[' {
		return nil, []*ProfileError{{Index: -1, Reason: "not a JSON array"}}
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(trimmed, &raws); err != nil {
		return nil, []*ProfileError{{Index: -1, Reason: "not a JSON array: " + err.Error()}}
	}
	profiles := make([]AgentProfile, 0, len(raws))
	var errs []*ProfileError
	loaded := make(map[string]int, len(raws)) // agent_id -> index of the entry
	for i, raw := range raws {
		p, err := decodeProfile(raw)
		if err != nil {
			errs = append(errs, &ProfileError{Index: i, AgentID: peekAgentID(raw), Reason: err.Error()})
			continue
		}
		p = NormalizeProfile(p)
		if err := ValidateProfile(p); err != nil {
			errs = append(errs, &ProfileError{Index: i, AgentID: p.AgentID, Reason: err.Error()})
			continue
		}
		if j, dup := loaded[p.AgentID]; dup {
			errs = append(errs, &ProfileError{Index: i, AgentID: p.AgentID,
				Reason: fmt.Sprintf("agent_id: duplicate of profile #%d", j)})
			continue
		}
		loaded[p.AgentID] = i
		profiles = append(profiles, p)
	}
	return profiles, errs
}

// decodeProfile decodes one JSON object into a profile, rejecting unknown
// fields.
func decodeProfile(raw json.RawMessage) (AgentProfile, error) {
	var p AgentProfile
	if len(raw) == 0 || raw[0] != '{' { // RawMessage elements carry no leading space
		return p, errors.New("not a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return AgentProfile{}, fmt.Errorf("%s: got a JSON %s, want %s", te.Field, te.Value, te.Type)
		}
		return AgentProfile{}, errors.New(strings.TrimPrefix(err.Error(), "json: "))
	}
	if _, err := dec.Token(); err != io.EOF {
		return AgentProfile{}, errors.New("trailing data after the JSON object")
	}
	return p, nil
}

// peekAgentID returns the agent_id of a raw entry that failed to decode, if
// it is a JSON object with a string agent_id; else "".
func peekAgentID(raw json.RawMessage) string {
	var v struct {
		AgentID any `json:"agent_id"`
	}
	if json.Unmarshal(raw, &v) != nil {
		return ""
	}
	id, _ := v.AgentID.(string)
	return strings.TrimSpace(id)
}
