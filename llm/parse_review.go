package llm

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/towow/towow/domain"
)

// Parsers of the review prompts: 5 (feedback), 7 (gaps), 8 (recursion).

// ---- 5 方案反馈

// parseFeedback parses prompt 5's reply. feedback_type is required;
// adjustment_request is kept only for negotiate, where it falls back to the
// reasoning, then to the first concern (none of them: invalid).
func parseFeedback(text string, _ *FeedbackInput) (domain.FeedbackAnswer, error) {
	var raw FeedbackReply
	if err := decode(text, &raw, "feedback_type"); err != nil {
		return domain.FeedbackAnswer{}, err
	}
	ft, ok := lookupEnum(feedbackTypes, string(raw.FeedbackType))
	if !ok {
		return domain.FeedbackAnswer{}, invalid("unknown feedback_type %q", raw.FeedbackType)
	}
	out := domain.FeedbackAnswer{
		FeedbackType: ft,
		Reasoning:    clip(string(raw.Reasoning), maxTextRunes),
		Concerns:     cleanList(raw.Concerns, maxTextRunes, maxListItems),
		Confidence:   confidencePercent(raw.Confidence),
	}
	for _, ch := range raw.ProposedChanges {
		pc := domain.ProposedChange{Field: clip(string(ch.Field), maxShortRunes),
			Value: clip(string(cmp.Or(ch.Value, ch.NewValue)), maxTextRunes), Reason: clip(string(ch.Reason), maxTextRunes)}
		if pc.Field != "" && len(out.ProposedChanges) < maxListItems {
			out.ProposedChanges = append(out.ProposedChanges, pc)
		}
	}
	if ft == domain.FeedbackNegotiate {
		out.AdjustmentRequest = clip(string(raw.AdjustmentRequest), maxTextRunes)
		if out.AdjustmentRequest == "" {
			out.AdjustmentRequest = out.Reasoning
		}
		if out.AdjustmentRequest == "" && len(out.Concerns) > 0 {
			out.AdjustmentRequest = out.Concerns[0]
		}
		if out.AdjustmentRequest == "" {
			return domain.FeedbackAnswer{}, invalid("negotiate without adjustment_request")
		}
	}
	return out, nil
}

// ---- 7 缺口识别

// defaultGapImportance is the importance of a gap that states none.
const defaultGapImportance = 50

// parseGaps parses prompt 7's reply. Gaps need a gap_type (one gap per
// type); importance is clamped to 0-100. is_complete is as stated, except
// that it is true when no gap remains (nothing to fill) and defaults to
// "no gaps" when absent. A complete proposal may still list minor gaps.
func parseGaps(text string, _ *GapInput) (GapResult, error) {
	var raw GapsReply
	if err := decode(text, &raw, "is_complete", "gaps"); err != nil {
		return GapResult{}, err
	}
	out := GapResult{Analysis: clip(string(raw.Analysis), maxTextRunes), Gaps: []domain.Gap{}}
	seen := map[string]bool{}
	for _, g := range raw.Gaps {
		gt := clip(string(g.GapType), maxShortRunes)
		if gt == "" || seen[gt] {
			continue
		}
		seen[gt] = true
		imp := defaultGapImportance
		if g.Importance.IsNum {
			imp = percent(g.Importance.Num)
		}
		out.Gaps = append(out.Gaps, domain.Gap{
			GapType:                 gt,
			Importance:              imp,
			Reason:                  clip(string(g.Reason), maxTextRunes),
			SuggestedCapabilityTags: cleanList(g.SuggestedCapabilityTags, maxShortRunes, maxTagItems),
			Description:             cmp.Or(clip(string(g.Description), maxTextRunes), clip(string(g.Reason), maxTextRunes)),
		})
		if len(out.Gaps) == maxGaps {
			break
		}
	}
	complete, ok := boolOf(raw.IsComplete)
	if !ok {
		complete = len(out.Gaps) == 0
	}
	if len(out.Gaps) == 0 {
		complete = true
	}
	out.IsComplete = complete
	return out, nil
}

// ---- 8 递归判断

// conditionNames label the three conditions of 001 §3.3.8 in Analysis.
var conditionNames = [3]string{"需求满足度", "利益相关方", "成本效益"}

// parseRecursion parses prompt 8's reply. should_recurse is required. It
// is forced false when a condition is stated as not met, or when the
// channel is already at the depth limit (MaxDepth > 0 and Depth ≥
// MaxDepth). Each sub-demand must name one of the input's gaps (matched
// exactly, case-insensitively or by containment; without a gap_type, by its
// description, or the only gap); at most 3, one per gap. A reply that wants
// to recurse but names no fillable gap is invalid.
func parseRecursion(text string, in *RecursionInput) (RecursionResult, error) {
	var raw RecursionReply
	if err := decode(text, &raw, "should_recurse", "sub_demands"); err != nil {
		return RecursionResult{}, err
	}
	should, ok := boolOf(raw.ShouldRecurse)
	if !ok {
		return RecursionResult{}, invalid("should_recurse missing or not a boolean")
	}
	out := RecursionResult{SubDemands: []SubDemandResult{}}
	var parts []string
	for i, c := range []struct {
		met      Scalar
		analysis Text
	}{{raw.Condition1Met, raw.Condition1Analysis}, {raw.Condition2Met, raw.Condition2Analysis}, {raw.Condition3Met, raw.Condition3Analysis}} {
		met, stated := boolOf(c.met)
		if stated && !met {
			should = false
		}
		label := ""
		if stated {
			label = map[bool]string{true: "（满足）", false: "（不满足）"}[met]
		}
		if a := clip(string(c.analysis), maxTextRunes); a != "" || stated {
			parts = append(parts, fmt.Sprintf("条件%d %s%s：%s", i+1, conditionNames[i], label, a))
			rc := domain.RecursionCondition{Name: conditionNames[i], Analysis: a}
			if stated {
				rc.Met = &met
			}
			out.Conditions = append(out.Conditions, rc)
		}
	}
	out.Analysis = strings.Join(parts, "\n")
	if in.MaxDepth > 0 && in.Depth >= in.MaxDepth {
		should = false
	}
	if !should {
		return out, nil
	}
	seen := map[string]bool{}
	for _, sd := range raw.SubDemands {
		gap, ok := matchGap(in.Gaps, string(sd.GapType), string(sd.Description))
		if !ok || seen[gap.GapType] {
			continue
		}
		seen[gap.GapType] = true
		d := domain.SubDemand{
			Description:    clip(string(sd.Description), maxTextRunes),
			CapabilityTags: cleanList(sd.CapabilityTags, maxShortRunes, maxTagItems),
		}
		if d.Description == "" {
			d.Description = "为填补缺口「" + gap.GapType + "」寻找协作者"
		}
		if len(d.CapabilityTags) == 0 {
			d.CapabilityTags = cleanList(gap.SuggestedCapabilityTags, maxShortRunes, maxTagItems)
		}
		if len(d.CapabilityTags) == 0 {
			d.CapabilityTags = []string{gap.GapType}
		}
		if p := string(sd.Priority); p != "" {
			if d.Priority, ok = lookupEnum(priorities, p); !ok {
				return RecursionResult{}, invalid("unknown priority %q", p)
			}
		} else {
			d.Priority = priorityOf(gap.Importance)
		}
		out.SubDemands = append(out.SubDemands, SubDemandResult{GapType: gap.GapType, Demand: d})
		if len(out.SubDemands) == maxSubDemands {
			break
		}
	}
	if len(out.SubDemands) == 0 {
		return RecursionResult{}, invalid("should_recurse without a sub-demand for a known gap (%d given)", len(raw.SubDemands))
	}
	out.ShouldRecurse = true
	return out, nil
}

// matchGap finds the input gap a sub-demand fills. Without input gaps, the
// reply's own non-empty gap type is taken as is.
func matchGap(gaps []domain.Gap, gapType, description string) (domain.Gap, bool) {
	gapType = clip(gapType, maxShortRunes)
	if len(gaps) == 0 {
		return domain.Gap{GapType: gapType}, gapType != ""
	}
	if gapType != "" {
		for _, eq := range []func(a, b string) bool{
			func(a, b string) bool { return a == b },
			strings.EqualFold,
			func(a, b string) bool { return strings.Contains(a, b) || strings.Contains(b, a) },
		} {
			for _, g := range gaps {
				if t := strings.TrimSpace(g.GapType); t != "" && eq(t, gapType) {
					return g, true
				}
			}
		}
		return domain.Gap{}, false
	}
	for _, g := range gaps {
		if t := strings.TrimSpace(g.GapType); t != "" && strings.Contains(description, t) {
			return g, true
		}
	}
	if len(gaps) == 1 && strings.TrimSpace(gaps[0].GapType) != "" {
		return gaps[0], true
	}
	return domain.Gap{}, false
}

// priorityOf maps a gap importance to a sub-demand priority.
func priorityOf(importance int) string {
	switch {
	case importance >= 70:
		return "high"
	case importance >= 40:
		return "medium"
	}
	return "low"
}
