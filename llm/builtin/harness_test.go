package builtin

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	neg "github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/domain/workflow"
	"github.com/towow/towow/llm"
)

// This file holds test helpers: a generated profile list and a tiny
// negotiation engine that drives the provider like the real one would.

var (
	testSurnames = []string{"王", "李", "张", "刘", "陈", "杨", "赵", "黄", "周", "吴", "徐", "孙"}
	testGiven    = []string{"伟", "芳", "娜", "敏", "静", "磊", "洋", "艳", "勇", "军", "杰", "婷", "强", "丽", "涛"}
	testCities   = []string{"北京", "北京", "北京", "上海", "上海", "深圳", "杭州", "广州", "成都", "远程"}
	testAvail    = []string{"周末可用", "仅工作日", "工作日晚上和周末", "时间灵活", "近期较忙，周末偶尔有空", "随时可以", "仅周末"}
	testInterest = []string{"AI", "创业", "设计", "摄影", "音乐", "开源", "读书", "产品", "Web3", "美食"}
)

// testProfiles generates n profiles across the tag vocabulary and cities.
func testProfiles(n int) []neg.AgentProfile {
	var out []neg.AgentProfile
	for i := 0; i < n; i++ {
		t1 := vocabulary[i%len(vocabulary)].tag
		tags := []string{t1}
		if i%2 == 0 {
			if t2 := vocabulary[(i*7+3)%len(vocabulary)].tag; t2 != t1 {
				tags = append(tags, t2)
			}
		}
		if i%5 == 0 {
			if t3 := vocabulary[(i*11+8)%len(vocabulary)].tag; !contains(tags, t3) {
				tags = append(tags, t3)
			}
		}
		city := testCities[(i*7+i/10)%len(testCities)]
		name := testSurnames[i%len(testSurnames)] + testGiven[(i*5)%len(testGiven)]
		out = append(out, neg.AgentProfile{
			AgentID:        fmt.Sprintf("user_agent_%02d", i),
			UserName:       name,
			ProfileSummary: fmt.Sprintf("我是%s，常驻%s，主要做%s相关的工作，参与过多次社区活动。", name, city, joinCN(tags)),
			Location:       city,
			Tags:           tags,
			Capabilities:   map[string]string{t1: testCapability(t1, city)},
			Interests:      []string{testInterest[i%len(testInterest)], testInterest[(i*3+1)%len(testInterest)]},
			Availability:   testAvail[(i*3+i/5)%len(testAvail)],
		})
	}
	return out
}

// testDemands are ordinary demands, Chinese and English.
var testDemands = []string{
	"我想在北京办一场AI主题聚会，需要场地和嘉宾",
	"I want to host an AI meetup in Shanghai for 50 people, need a venue and speakers",
	"下周六在上海办一个50人的创业沙龙，需要场地、主持和摄影，预算3000元",
	"想在深圳组织一次产品经理交流会，需要嘉宾分享和茶歇",
	"我们公司要做一个活动报名网站，需要前端和后端开发，还要UI设计",
	"在杭州办一场读书会，需要场地和主持人，大概20人",
	"2026-03-14 在北京举办AI黑客松，100人，需要场地、志愿者、餐饮和评委嘉宾",
	"需要一位摄影师和一位视频剪辑师，帮我们记录北京的年会",
	"Looking for a photographer and a videographer for our product launch in Beijing next Saturday",
	"想找人帮忙设计活动海报，并印刷易拉宝和胸牌",
	"成都的开源技术分享会，需要场地、音响设备和直播支持",
	"需要懂合同的律师和财务顾问帮我看一下创业公司的融资协议",
	"广州周末办一场音乐主题派对，需要场地、音响和餐饮，预算¥5000",
	"Need a translator and a host for a bilingual workshop in Shenzhen on March 8",
	"找几个志愿者帮忙在北京做一场公益活动的签到和引导",
	"想做一个数据分析报告，需要懂数据分析和AI研究的人",
}

// testEngine drives the provider through one negotiation like the engine.
type testEngine struct {
	t        testing.TB
	p        llm.Provider
	profiles []neg.AgentProfile
	requests map[llm.PromptKey][]llm.Request // every request made, by key
	texts    []string                        // every reply, in order
}

func newTestEngine(t testing.TB, profiles []neg.AgentProfile) *testEngine {
	return &testEngine{t: t, p: New(), profiles: profiles, requests: map[llm.PromptKey][]llm.Request{}}
}

// call runs one request and decodes the reply's JSON into out.
func (e *testEngine) call(key llm.PromptKey, in any, out any) string {
	e.t.Helper()
	req := llm.Request{Key: key, Input: in}
	e.requests[key] = append(e.requests[key], req)
	resp, err := e.p.Complete(context.Background(), req)
	if err != nil {
		e.t.Fatalf("%s: %v", key, err)
	}
	e.texts = append(e.texts, resp.Text)
	body := extractJSON(resp.Text)
	if err := json.Unmarshal([]byte(body), out); err != nil {
		e.t.Fatalf("%s: bad JSON %v in %s", key, err, resp.Text)
	}
	return body
}

// extractJSON strips a fence or a preamble around the JSON object.
func extractJSON(text string) string {
	i, j := strings.Index(text, "{"), strings.LastIndex(text, "}")
	if i < 0 || j < i {
		return text
	}
	return text[i : j+1]
}

// negotiation is what happened to one demand.
type negotiation struct {
	raw         string
	u           neg.Understanding
	candidates  []tCandidate
	offers      map[string]neg.OfferAnswer
	order       []string
	rounds      []map[string]neg.FeedbackType // feedback per round
	acceptRates []float64
	outcome     string // finalized, failed, force_finalized, no_participants
	final       neg.Proposal
	gaps        llm.GapResult
	recursion   tRecursion
}

func (n negotiation) count(dec neg.OfferDecision) int {
	c := 0
	for _, o := range n.offers {
		if o.Decision == dec {
			c++
		}
	}
	return c
}

// run negotiates one demand as the channel does: up to 5 rounds, agreed
// at an acceptance share of 0.8, partial agreement from 0.5.
func (e *testEngine) run(raw string) negotiation {
	n := negotiation{raw: raw, offers: map[string]neg.OfferAnswer{}}
	e.call(llm.PromptUnderstand, &llm.UnderstandInput{RawInput: raw, UserID: "requester"}, &n.u)
	var f tFilter
	e.call(llm.PromptFilter, &llm.FilterInput{Demand: n.u, RawInput: raw, Profiles: e.profiles}, &f)
	n.candidates = append(append([]tCandidate{}, f.DefinitelyRelated...), f.PossiblyRelated...)
	byID := map[string]neg.AgentProfile{}
	for _, p := range e.profiles {
		byID[p.AgentID] = p
	}
	var views []llm.OfferView
	for _, c := range n.candidates {
		var o neg.OfferAnswer
		e.call(llm.PromptOffer, &llm.OfferInput{Profile: byID[c.AgentID], Demand: n.u, RawInput: raw, FilterReason: c.Reason}, &o)
		n.offers[c.AgentID] = o
		n.order = append(n.order, c.AgentID)
		if o.Decision != neg.OfferDecisionDecline {
			views = append(views, llm.OfferView{AgentID: c.AgentID, DisplayName: c.DisplayName, Decision: o.Decision,
				Contribution: o.Contribution, Conditions: o.Conditions, Reasoning: o.Reasoning})
		}
	}
	if len(views) == 0 {
		n.outcome = "no_participants"
		return n
	}
	var prop neg.Proposal
	e.call(llm.PromptAggregate, &llm.AggregateInput{Demand: n.u, RawInput: raw, Offers: views}, &prop)
	prop.Version = 1
	participants := views
	for round := 1; ; round++ {
		fb := map[string]neg.FeedbackType{}
		var fviews []llm.FeedbackView
		accepts := 0
		members := participants
		if len(prop.Alternates) > 0 { // as the channel does: alternates stand by
			members = nil
			for _, v := range participants {
				if slices.ContainsFunc(prop.Assignments, func(a neg.Assignment) bool { return a.AgentID == v.AgentID }) {
					members = append(members, v)
				}
			}
		}
		for _, v := range members {
			var my *neg.Assignment
			for i := range prop.Assignments {
				if prop.Assignments[i].AgentID == v.AgentID {
					my = &prop.Assignments[i]
				}
			}
			var r neg.FeedbackAnswer
			e.call(llm.PromptFeedback, &llm.FeedbackInput{Profile: byID[v.AgentID], Demand: n.u, Proposal: prop,
				MyAssignment: my, MyOffer: v, Round: round, MaxRounds: 5}, &r)
			fb[v.AgentID] = r.FeedbackType
			if r.FeedbackType == neg.FeedbackAccept {
				accepts++
			}
			fviews = append(fviews, llm.FeedbackView{AgentID: v.AgentID, DisplayName: v.DisplayName, FeedbackType: r.FeedbackType,
				Reasoning: r.Reasoning, AdjustmentRequest: r.AdjustmentRequest, Concerns: r.Concerns})
		}
		n.rounds = append(n.rounds, fb)
		rate := float64(accepts) / float64(max(1, len(members)))
		n.acceptRates = append(n.acceptRates, rate)
		var tally neg.Tally // the channel's rules decide, as in the engine
		for _, ft := range fb {
			tally.Add(ft)
		}
		switch tally.Decide(round, neg.DefaultRules()) {
		case neg.RoundFinalize:
			n.outcome = "finalized"
		case neg.RoundFail:
			n.outcome = "failed"
		case neg.RoundForceFinalize:
			n.outcome = "force_finalized"
		}
		if n.outcome != "" {
			break
		}
		var still []llm.OfferView
		for _, v := range participants {
			if fb[v.AgentID] != neg.FeedbackWithdraw {
				still = append(still, v)
			}
		}
		participants = still
		var next neg.Proposal
		e.call(llm.PromptAdjust, &llm.AdjustInput{Demand: n.u, RawInput: raw, Current: prop, Feedbacks: fviews,
			Round: round + 1, MaxRounds: 5, Participants: participants}, &next)
		next.Version = round + 1
		prop = next
	}
	n.final = prop
	if n.outcome != "failed" {
		e.call(llm.PromptGaps, &llm.GapInput{Demand: n.u, RawInput: raw, Offers: views}, &n.gaps)
		e.call(llm.PromptRecursion, &llm.RecursionInput{Demand: n.u, RawInput: raw, Gaps: n.gaps.Gaps, Offers: views,
			Depth: 0, MaxDepth: 1}, &n.recursion)
	}
	return n
}

// generatedDemands are more ordinary demands built from templates.
func generatedDemands() []string {
	cities := []string{"北京", "上海", "深圳", "杭州", "广州", "成都"}
	events := []string{"聚会", "沙龙", "工作坊", "分享会", "论坛"}
	themes := []string{"AI", "创业", "设计", "开源", "产品"}
	needs := [][]string{
		{"场地", "嘉宾"}, {"场地", "摄影"}, {"主持人", "音响"}, {"嘉宾", "茶歇"}, {"场地", "直播"},
		{"海报设计", "推广"}, {"摄像", "剪辑"}, {"志愿者", "场地"},
	}
	var out []string
	for i := 0; i < 40; i++ {
		c := cities[i%len(cities)]
		ev := events[(i/2)%len(events)]
		th := themes[(i*3)%len(themes)]
		nd := needs[(i*5)%len(needs)]
		s := "想在" + c + "办一场" + th + ev + "，需要" + nd[0] + "和" + nd[1]
		if i%3 == 0 {
			s += "，大概" + []string{"30", "50", "80", "15"}[i%4] + "人"
		}
		if i%4 == 1 {
			s += "，时间是下周六"
		}
		out = append(out, s)
	}
	return out
}

// testCapability is a profile's own description of a capability.
func testCapability(tag, city string) string {
	switch tag {
	case "场地提供":
		return "在" + city + "有一间200平米的活动空间，可容纳80人，带投影"
	case "演讲嘉宾":
		return "做过十多场技术分享，擅长把复杂话题讲清楚"
	case "摄影":
		return "5年活动摄影经验，当天出精选图"
	}
	return ""
}

// taskRequests are the task prompt's requests for the workflow that n's
// final proposal becomes (workflow.PlanWorkflow): one per task, with the
// results of the tasks it waits for, then the same task due on a Saturday
// and on a Monday, so that the availability rule is exercised.
func taskRequests(profiles []neg.AgentProfile, n negotiation) []llm.Request {
	byID := map[string]neg.AgentProfile{}
	for _, p := range profiles {
		byID[p.AgentID] = p
	}
	wf := workflow.PlanWorkflow(workflow.PlanInput{DemandID: "d-test", ChannelID: "c-test", UserID: "requester", Plan: n.final})
	done := map[string]workflow.NodeResult{}
	for _, node := range wf.Nodes {
		if node.Type == workflow.NodeTask {
			done[node.ID] = workflow.NodeResult{Summary: "已完成：" + node.Title, By: node.AssigneeID}
		}
	}
	var reqs []llm.Request
	for _, node := range wf.Nodes {
		if node.Type != workflow.NodeTask {
			continue
		}
		var before []workflow.NodeOutcome
		for _, e := range wf.Edges {
			if r, ok := done[e.From]; ok && e.To == node.ID {
				before = append(before, workflow.NodeOutcome{NodeID: e.From, Result: r})
			}
		}
		for _, due := range []string{"", "2026-03-14", "2026-03-16"} {
			task := node
			task.Due = due
			reqs = append(reqs, llm.Request{Key: llm.PromptTask, Input: &llm.TaskInput{Profile: byID[node.AssigneeID], Demand: n.u,
				RawInput: n.raw, Plan: n.final.Summary, Task: task, Before: before}})
		}
	}
	return reqs
}
