package bench

import (
	"context"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/towow/towow/app"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/llm"
	"github.com/towow/towow/mocknet"
)

// FilterResult is the smart filter measured on a network of one size.
type FilterResult struct {
	Agents int
	// Load is registering the profiles through the same events real ones
	// use (batches of loadBatch), then the agent index catching up.
	Load, IndexSync time.Duration
	// Prefilter is the SQL stage, P50 and P99 over every demand and
	// repetition.
	PrefilterP50, PrefilterP99 time.Duration
	// Shortlisted is the mean shortlist size; PromptTokens the mean
	// estimated size of prompt 2 on it (llm.PromptTokens).
	Shortlisted, PromptTokens float64
	// FilterP50 is both stages end to end with the builtin brain.
	FilterP50 time.Duration
}

// loadBatch is how many profiles one registration commits.
const loadBatch = 1000

// FilterDemands are the demands the filter benchmark shortlists for.
var FilterDemands = append(slices.Clone(SampleDemands),
	"I need a photographer and a caterer for a 30-person wedding in Shanghai next month",
	"下个月在深圳组织一次黑客马拉松，需要场地、评委和赞助商",
	"想给我们的开源项目做一个新网站，需要设计师和前端开发",
	"年会需要两位主讲嘉宾、一位主持人和5名志愿者",
	"找一位律师帮忙看合同", "需要司机接送嘉宾去机场")

// Filter loads a generated network of n profiles (mocknet.Network) into a
// (an App on an empty database whose engine uses the builtin brain), then shortlists for every demand
// of FilterDemands reps times, and runs both stages of the filter once per
// demand.
func Filter(ctx context.Context, a *app.App, n, reps int, progress io.Writer) (FilterResult, error) {
	res := FilterResult{Agents: n}
	profiles := mocknet.Network(n)
	t0 := time.Now()
	for i := 0; i < n; i += loadBatch {
		if _, err := a.Commands.RegisterProfiles(ctx, profiles[i:min(n, i+loadBatch)], "bench", false); err != nil {
			return res, fmt.Errorf("load profiles: %w", err)
		}
		if progress != nil && (i/loadBatch)%20 == 19 {
			fmt.Fprintf(progress, "  %d profiles loaded\n", i+loadBatch)
		}
	}
	res.Load = time.Since(t0)
	type demand struct {
		raw string
		u   negotiation.Understanding
	}
	var demands []demand
	for _, raw := range FilterDemands {
		u, _, err := llm.Call(ctx, a.LLM, llm.Understand, llm.UnderstandInput{RawInput: raw, UserID: "bench"})
		if err != nil {
			return res, err
		}
		demands = append(demands, demand{raw, u})
	}
	t0 = time.Now()
	if _, err := a.WriteSide.Negotiation.Shortlist(ctx, negotiation.NeedsOf(demands[0].u), "", ""); err != nil { // the index catches up
		return res, err
	}
	res.IndexSync = time.Since(t0)

	var pre, whole []time.Duration
	var size, tokens float64
	for r := 0; r < reps; r++ {
		for _, d := range demands {
			t := time.Now()
			list, err := a.WriteSide.Negotiation.Shortlist(ctx, negotiation.NeedsOf(d.u), d.u.Context.Location, d.raw)
			if err != nil {
				return res, err
			}
			pre = append(pre, time.Since(t))
			if r > 0 {
				continue
			}
			in := llm.FilterInput{Demand: d.u, RawInput: d.raw, Profiles: list, MaxCandidates: 12}
			n, err := llm.PromptTokens(llm.Filter, &in)
			if err != nil {
				return res, err
			}
			size += float64(len(list))
			tokens += float64(n)
			if _, _, err := llm.Call(ctx, a.LLM, llm.Filter, in); err != nil {
				return res, err
			}
			whole = append(whole, time.Since(t))
		}
	}
	res.Shortlisted, res.PromptTokens = size/float64(len(demands)), tokens/float64(len(demands))
	res.PrefilterP50, res.PrefilterP99 = percentile(pre, 0.50), percentile(pre, 0.99)
	res.FilterP50 = percentile(whole, 0.50)
	return res, nil
}

// WriteFilter prints one row per network size and the prompt growth.
func WriteFilter(w io.Writer, rows []FilterResult) error {
	fmt.Fprintf(w, "%9s %10s %11s %14s %14s %12s %14s %12s\n", "agents", "load", "index sync", "prefilter p50", "prefilter p99",
		"shortlisted", "prompt tokens", "filter p50")
	for _, r := range rows {
		fmt.Fprintf(w, "%9d %10s %11s %14s %14s %12.1f %14.0f %12s\n", r.Agents, r.Load.Round(time.Millisecond),
			r.IndexSync.Round(time.Millisecond), r.PrefilterP50.Round(10*time.Microsecond), r.PrefilterP99.Round(10*time.Microsecond),
			r.Shortlisted, r.PromptTokens, r.FilterP50.Round(10*time.Microsecond))
	}
	if len(rows) > 1 && rows[0].PromptTokens > 0 {
		last := rows[len(rows)-1]
		_, err := fmt.Fprintf(w, "prompt 2 at %d agents is %.2fx its size at %d agents\n", last.Agents,
			last.PromptTokens/rows[0].PromptTokens, rows[0].Agents)
		return err
	}
	return nil
}
