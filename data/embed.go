// Package data holds the data files embedded in the binary: the mock agent
// profiles and the scenarios of `towow eval`.
package data

import _ "embed"

// MockProfiles is data/mock_profiles.json: a JSON array of 100 mock agent
// profiles (digital twins of fictional people in 北京, 上海, 深圳, 杭州, 广州,
// 成都 and 远程), whose tags are drawn from the shared capability
// vocabulary and whose summaries (200 to 500 characters, in the first
// person) tell concrete experience and claim no capability outside their
// tags. Decode it with negotiation.ParseProfiles; never change the bytes
// in place (every reader shares them). Larger networks of the same shape
// come from mocknet.Network.
//
//go:embed mock_profiles.json
var MockProfiles []byte

// EvalScenarios is data/eval_scenarios.json: the demands `towow eval`
// runs, in Chinese and English over more than 25 domains, each with
// whether an agreement or a rejection is expected and, for an agreement,
// the needs and the city a careful reader finds in it (eval.Scenario).
//
//go:embed eval_scenarios.json
var EvalScenarios []byte
