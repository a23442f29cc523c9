package llm

import (
	"strings"

	"github.com/towow/towow/domain/negotiation"
)

// Enum synonym tables, keyed by enumKey (lower case, no spaces or
// punctuation). A value not in its table is a validation failure.

var confidenceLevels = map[string]negotiation.Confidence{
	"high": negotiation.ConfidenceHigh, "h": negotiation.ConfidenceHigh, "高": negotiation.ConfidenceHigh,
	"medium": negotiation.ConfidenceMedium, "med": negotiation.ConfidenceMedium, "mid": negotiation.ConfidenceMedium,
	"moderate": negotiation.ConfidenceMedium, "m": negotiation.ConfidenceMedium, "中": negotiation.ConfidenceMedium,
	"中等":  negotiation.ConfidenceMedium,
	"low": negotiation.ConfidenceLow, "l": negotiation.ConfidenceLow, "低": negotiation.ConfidenceLow,
}

// confidenceLevel normalises a high/medium/low confidence (prompts 1, 4,
// 9). Numbers are mapped by thresholds (0..1 or 0..100: ≥70 high, ≥40
// medium). An absent value gives def; an unknown word is not ok.
func confidenceLevel(f Scalar, def negotiation.Confidence) (negotiation.Confidence, bool) {
	switch {
	case !f.Present:
		return def, true
	case f.IsNum:
		switch p := percent(f.Num); {
		case p >= 70:
			return negotiation.ConfidenceHigh, true
		case p >= 40:
			return negotiation.ConfidenceMedium, true
		default:
			return negotiation.ConfidenceLow, true
		}
	case f.IsBool:
		return "", false
	case strings.TrimSpace(f.Str) == "":
		return def, true
	}
	return lookupEnum(confidenceLevels, f.Str)
}

// confidencePercent normalises a 0-100 confidence (prompts 3, 5): numbers
// (fractions scaled) clamped, high/medium/low mapped to 80/60/30, anything
// else 0 (unknown).
func confidencePercent(f Scalar) int {
	if f.IsNum {
		return percent(f.Num)
	}
	if level, ok := lookupEnum(confidenceLevels, f.Str); ok && f.Present && !f.IsBool {
		return map[negotiation.Confidence]int{negotiation.ConfidenceHigh: 80, negotiation.ConfidenceMedium: 60, negotiation.ConfidenceLow: 30}[level]
	}
	return 0
}

// confidenceFraction normalises prompt 2's 0..1 confidence: values above 1
// are taken as percentages; high/medium/low map to 0.9/0.6/0.3; absent or
// unknown gives def.
func confidenceFraction(f Scalar, def float64) float64 {
	if f.IsNum {
		return float64(percent(f.Num)) / 100
	}
	if level, ok := lookupEnum(confidenceLevels, f.Str); ok && f.Present && !f.IsBool {
		return map[negotiation.Confidence]float64{negotiation.ConfidenceHigh: 0.9, negotiation.ConfidenceMedium: 0.6, negotiation.ConfidenceLow: 0.3}[level]
	}
	return def
}
