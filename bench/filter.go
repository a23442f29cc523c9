package bench

import (
	"context"
	"fmt"
	"hash/fnv"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/towow/towow/app"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/llm"
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

// SyntheticProfiles returns n profiles drawn deterministically from the
// mock profiles' tags, cities and availabilities: one to three tags each,
// a short summary, a city or remote.
func SyntheticProfiles(n int, tags []string) []negotiation.AgentProfile {
	cities := []string{"北京", "上海", "深圳", "杭州", "广州", "成都", "远程"}
	avail := []string{"周末全天", "工作日晚上", "仅工作日", "时间灵活", "提前两周预约"}
	out := make([]negotiation.AgentProfile, n)
	for i := range out {
		h := fnv.New64a()
		fmt.Fprint(h, i)
		x := h.Sum64()
		k := 1 + int(x%3)
		var ts []string
		for j := 0; j < k; j++ {
			t := tags[int((x>>(8+8*j))%uint64(len(tags)))]
			if !slices.Contains(ts, t) {
				ts = append(ts, t)
			}
		}
		city := cities[int((x>>40)%uint64(len(cities)))]
		out[i] = negotiation.AgentProfile{AgentID: fmt.Sprintf("bench_agent_%06d", i), UserName: fmt.Sprintf("合成用户%d", i),
			ProfileSummary: fmt.Sprintf("我在%s工作，擅长%s，做过不少相关项目，乐于和社区合作。", city, strings.Join(ts, "、")),
			Location:       city, Tags: ts, Availability: avail[int((x>>48)%uint64(len(avail)))],
			Capabilities: map[string]string{ts[0]: "有五年以上" + ts[0] + "经验"}, Interests: []string{"AI", "创业"}}
	}
	return out
}

// Filter loads n synthetic profiles into a (an App on an empty database
// whose engine uses the builtin brain), then shortlists for every demand
// of FilterDemands reps times, and runs both stages of the filter once per
// demand.
func Filter(ctx context.Context, a *app.App, n, reps int, tags []string, progress io.Writer) (FilterResult, error) {
	res := FilterResult{Agents: n}
	profiles := SyntheticProfiles(n, tags)
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
