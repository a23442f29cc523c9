package negotiation

// Confidence is a coarse confidence level produced by the LLM prompts
// (high | medium | low).
type Confidence string

// Confidence levels.
const (
	ConfidenceHigh   Confidence = "high"
	ConfidenceMedium Confidence = "medium"
	ConfidenceLow    Confidence = "low"
)
