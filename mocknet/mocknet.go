// Package mocknet generates mock agent networks of any size: profiles of
// fictional people composed from what each capability's trade does, with
// summaries of 200 to 500 characters that tell concrete experience, as the
// 100 hand-written mock profiles do. The same n always gives the same
// network.
package mocknet

import (
	"fmt"
	"hash/fnv"
	"slices"
	"strings"

	"github.com/towow/towow/domain/negotiation"
)

// Summary length bounds, in characters: the design's 200 to 500.
const (
	MinSummary = 200
	MaxSummary = 500
)

// trade is what a person holding one capability tag does, in the phrases
// a summary is composed from. A phrase's %d is filled with a count drawn
// from counts, a fee's %d with a price drawn from fees (rounded to 50).
// No phrase may name another tag's work: the summary must not claim a
// capability its profile does not carry.
type trade struct {
	tag    string
	titles []string    // what such a person calls themselves: "活动摄影师"
	works  []string    // things done, each with one %d: "拍过%d场发布会"
	ways   []string    // how they work: tools, gear, methods
	caps   [][2]string // capability entries, key and value
	fee    string      // with one %d: "半天%d元起"
	counts [2]int      // the range of a work's count
	fees   [2]int      // the range of a fee
	kin    []string    // tags a person of this trade often also holds
	remote bool        // whether the work can be done from anywhere
}

var cities = []string{"北京", "上海", "深圳", "杭州", "广州", "成都", "远程"}

// districts are the parts of each city a person works from.
var districts = map[string][]string{
	"北京": {"朝阳区", "海淀区", "东城区", "西城区", "丰台区", "通州区"},
	"上海": {"徐汇区", "静安区", "浦东新区", "杨浦区", "长宁区", "黄浦区"},
	"深圳": {"南山区", "福田区", "罗湖区", "宝安区", "龙华区"},
	"杭州": {"西湖区", "滨江区", "余杭区", "拱墅区", "上城区"},
	"广州": {"天河区", "海珠区", "越秀区", "番禺区", "黄埔区"},
	"成都": {"武侯区", "锦江区", "高新区", "青羊区", "成华区"},
}

var availabilities = []string{"周末全天", "工作日晚上", "仅工作日", "时间灵活", "提前两周预约", "工作日晚上和周末", "远程随时"}

// availabilityLines say each availability in a sentence.
var availabilityLines = map[string]string{
	"周末全天":     "平时要上班，周末整天都能排给活动。",
	"工作日晚上":    "白天有本职工作，工作日晚上可以沟通和干活。",
	"仅工作日":     "我只在工作日接活，周末留给家人。",
	"时间灵活":     "时间比较灵活，提前几天约好就行。",
	"提前两周预约":   "档期比较满，一般需要提前两周预约。",
	"工作日晚上和周末": "工作日晚上和周末都能配合。",
	"远程随时":     "线上协作随时可以，消息基本当天回复。",
}

var interestPool = []string{"AI", "创业", "开源", "阅读", "跑步", "徒步", "独立音乐", "桌游", "城市漫步", "科幻", "播客", "羽毛球", "公益", "历史", "电影", "旅行", "手作", "围棋", "骑行"}

var surnames = []rune("王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤")

var givenNames = []string{"晓", "明", "静", "磊", "婷", "洋", "敏", "杰", "琳", "浩", "雪", "宇", "欣", "涛", "悦", "博", "佳", "晨", "思", "然", "一", "可", "子", "安", "宁", "远", "航", "楠", "蕾", "凯", "昊", "雯"}

// doneLines tell three things a person has done, each a work's phrase.
var doneLines = []string{
	"这些年%s，也%s，还%s。",
	"入行以来，我%s，%s，还%s。",
	"这几年我%s，%s，也%s。",
}

// kinLines begin the line for a second and a third trade, with its title.
var kinLines = []string{"另外我也是%s，", "同时我还是%s，"}

// closings are how a person likes to work with others; none names a trade.
var closings = []string{
	"合作前我习惯先开个短会，把目标、预算和时间点对齐。",
	"我比较看重提前沟通，需求越具体，交付越顺。",
	"做事喜欢留余量，关键节点会提前一天再确认一遍。",
	"希望合作方有一个固定的对接人，信息不用来回转。",
	"对公益和社区活动可以打折，商业项目按标准来。",
	"接活不求多，每个项目都想做到自己满意。",
}

// Network returns n mock profiles with agent ids mock_agent_000000 on.
// Each holds one to three tags (the first its trade, the others kin of
// it), a city or remote, a district, one capability entry per tag and a
// fee, two to four interests, an availability, and a summary of
// MinSummary to MaxSummary characters written from its trades.
func Network(n int) []negotiation.AgentProfile {
	out := make([]negotiation.AgentProfile, n)
	for i := range out {
		out[i] = profile(i)
	}
	return out
}

// draw is a deterministic source of choices for one profile.
type draw struct{ x uint64 }

func newDraw(i int) *draw {
	h := fnv.New64a()
	fmt.Fprintf(h, "mocknet-%d", i)
	return &draw{h.Sum64()}
}

// intn returns a number in [0, n), stirring the state (splitmix64).
func (d *draw) intn(n int) int {
	d.x += 0x9e3779b97f4a7c15
	z := d.x
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	z ^= z >> 31
	return int(z % uint64(n))
}

func (d *draw) pick(s []string) string { return s[d.intn(len(s))] }

func (d *draw) between(r [2]int) int { return r[0] + d.intn(r[1]-r[0]+1) }

// done is how many of a work a person has done in their years: a count of
// the trade's range, scaled down for someone under six years in it (a
// newcomer has not done a hundred of anything).
func (d *draw) done(r [2]int, years int) int {
	n := d.between(r)
	if years < 6 {
		n = max(2, n*years/6)
	}
	return n
}

func profile(i int) negotiation.AgentProfile {
	d := newDraw(i)
	primary := trades[d.intn(len(trades))]
	ts := []*trade{primary}
	for k := d.intn(3); k > 0 && len(primary.kin) > 0; k-- {
		t := tradeOf(d.pick(primary.kin))
		if t != nil && !slices.Contains(ts, t) {
			ts = append(ts, t)
		}
	}
	name := string(surnames[d.intn(len(surnames))]) + d.pick(givenNames)
	if d.intn(2) == 0 {
		name += d.pick(givenNames)
	}
	city := d.pick(cities)
	for city == "远程" && !primary.remote {
		city = d.pick(cities)
	}
	avail := d.pick(availabilities)
	years := 2 + d.intn(13)

	p := negotiation.AgentProfile{
		AgentID: fmt.Sprintf("mock_agent_%06d", i), UserName: name, Location: city,
		Availability: avail, Capabilities: map[string]string{},
	}
	var s strings.Builder
	if ds := districts[city]; ds != nil {
		fmt.Fprintf(&s, "我是%s，在%s%s做%s已经%d年了。", name, city, d.pick(ds), d.pick(primary.titles), years)
	} else {
		fmt.Fprintf(&s, "我是%s，做%s已经%d年了，一直远程工作。", name, d.pick(primary.titles), years)
	}
	for _, t := range ts {
		p.Tags = append(p.Tags, t.tag)
		c := t.caps[d.intn(len(t.caps))]
		p.Capabilities[c[0]] = c[1]
	}
	// The trade: three things done and up to three ways of working, then
	// a line for each other trade held.
	works, ways := pickN(d, primary.works, len(primary.works)), pickN(d, primary.ways, len(primary.ways))
	done := make([]any, 3)
	for j := range done {
		done[j] = fmt.Sprintf(works[j], d.done(primary.counts, years))
	}
	fmt.Fprintf(&s, d.pick(doneLines), done...)
	n := min(3, len(ways))
	for _, w := range ways[:n] {
		s.WriteString(w + "。")
	}
	for j, t := range ts[1:] {
		fmt.Fprintf(&s, kinLines[j]+d.pick(t.works)+"。", d.pick(t.titles), d.done(t.counts, years))
	}
	// The terms and the person: fee, time, interests.
	var tail strings.Builder
	fee := fmt.Sprintf(primary.fee, roundTo(d.between(primary.fees), 50))
	p.Capabilities["费用"] = fee
	tail.WriteString("收费方面，" + fee + "。")
	tail.WriteString(availabilityLines[avail])
	ints := pickN(d, interestPool, 2+d.intn(3))
	p.Interests = ints
	fmt.Fprintf(&tail, "业余喜欢%s。", strings.Join(ints, "、"))
	// Too short: say more of the trade, ways first, then the works left.
	more := ways[n:]
	for _, w := range works[3:] {
		more = append(more, fmt.Sprintf(w, d.done(primary.counts, years)))
	}
	length := func() int { return len([]rune(s.String())) + len([]rune(tail.String())) }
	for _, m := range more {
		if length() >= MinSummary {
			break
		}
		s.WriteString("此外，" + m + "。")
	}
	closing := d.pick(closings)
	if length()+len([]rune(closing)) <= MaxSummary {
		tail.WriteString(closing)
	}
	s.WriteString(tail.String())
	p.ProfileSummary = s.String()
	return p
}

func tradeOf(tag string) *trade {
	for _, t := range trades {
		if t.tag == tag {
			return t
		}
	}
	return nil
}

// pickN draws k distinct elements of s (all of s when it is shorter).
func pickN(d *draw, s []string, k int) []string {
	idx := make([]int, len(s))
	for i := range idx {
		idx[i] = i
	}
	out := make([]string, 0, k)
	for j := 0; j < k && j < len(s); j++ {
		r := j + d.intn(len(s)-j)
		idx[j], idx[r] = idx[r], idx[j]
		out = append(out, s[idx[j]])
	}
	return out
}

func roundTo(v, step int) int { return (v + step/2) / step * step }
