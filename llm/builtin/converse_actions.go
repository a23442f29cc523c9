package builtin

import (
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/towow/towow/domain/workflow"
	"github.com/towow/towow/llm"
)

// The actions the conversation brain reads from a message (see
// converse.go): why a node failed, add, remove, reschedule and connect
// nodes, and how a text names nodes and people.

// whyFailed looks at the failed node the message asks about: the node
// it names by id, else the only failed node, else the only failed node
// sharing a title word with it; several candidates: ask which.
func (a agent) whyFailed(msg string) llm.ConverseReply {
	var failed, mentioned []string
	lower := strings.ToLower(msg)
	for _, n := range a.wf.Nodes {
		if n.Status != workflow.NodeStatusFailed {
			continue
		}
		failed = append(failed, n.ID)
		if slices.ContainsFunc(titleWords(n.Title), func(w string) bool { return findKeyword(lower, w) >= 0 }) {
			mentioned = append(mentioned, n.ID)
		}
	}
	var id string
	switch byID := idsIn(a.wf.Nodes, msg); {
	case len(byID) == 1:
		id = byID[0]
	case len(failed) == 1:
		id = failed[0]
	case len(mentioned) == 1:
		id = mentioned[0]
	case len(failed) == 0:
		return reply(a.say("没有失败的节点", "no node failed"), a.say("目前没有失败的步骤（工作流"+a.workflowWord()+"）。",
			"No step has failed (the workflow is "+a.workflowWord()+")."))
	default:
		return a.ask(a.say("有多个失败的节点，问是哪一个", "several nodes failed: ask which"),
			a.say("有几个节点失败了："+a.nodeList(failed)+"。你问的是哪一个？", "Several nodes failed: "+a.nodeList(failed)+". Which one do you mean?"))
	}
	return act(a.say("查看"+a.title(id)+"的详情和错误", "look at "+a.title(id)+" and its error"), workflow.ToolGetNode,
		workflow.DecisionPayload{NodeID: id}, 0.9)
}

// Patterns of "add X before/after Y".
var (
	addCN = `(?:加上|加入|增加|新增|添加|插入|创建|新建|再加|加)(?:一个|一项|一步|一场|一次|个)?`
	// 在Y之后加X
	addAnchorFirstCN = regexp.MustCompile(`^(?:在|于)?(.+?)(之前|以前|前面|之后|以后|后面|前|后)(?:再)?` + addCN + `(.+)$`)
	// 加X，在Y之后
	addAnchorLastCN = regexp.MustCompile(addCN + `(.+?)[，,、\s]*(?:放|安排|排)?在(.+?)(之前|以前|前面|之后|以后|后面|前|后)`)
	addOnlyCN       = regexp.MustCompile(addCN + `(.+)$`)
	// add X before Y
	addAnchorLastEN  = regexp.MustCompile(`(?i)\b(?:add|insert|create)\s+(?:a\s+|an\s+|the\s+|one\s+)?(.+?)\s+(before|after)\s+(?:the\s+)?(.+)$`)
	addAnchorFirstEN = regexp.MustCompile(`(?i)\b(before|after)\s+(?:the\s+)?(.+?),?\s+(?:add|insert|create)\s+(?:a\s+|an\s+|the\s+|one\s+)?(.+)$`)
	addOnlyEN        = regexp.MustCompile(`(?i)\b(?:add|insert|create)\s+(?:a\s+|an\s+|the\s+|one\s+)?(.+)$`)
	// who does it: 由Zoe负责, 交给Zoe, 让Zoe来做, ，Zoe负责, assigned to Zoe
	assignPatterns = []*regexp.Regexp{
		regexp.MustCompile(`[，,]?\s*(?:由|交给|安排给)\s*([^，,。！!；;\s]+?)\s*(?:来)?(?:负责|做|处理|完成|主持|[，,。！!；;\s]|$)`),
		regexp.MustCompile(`[，,]?\s*让\s*([^，,。！!；;\s]+)\s*(?:来)?(?:负责|做|处理|完成|主持)`),
		regexp.MustCompile(`[，,]\s*([^，,。！!；;\s]+)\s*(?:来)?负责`),
		regexp.MustCompile(`(?i),?\s*\b(?:assigned to|assign it to|owned by|handled by|done by|run by|led by)\s+([^,.;!?]+?)\s*(?:[.;!?]|$)`),
	}
)

// add creates a node: a milestone titled X, or a task when the message
// names who does it (assign).
func (a agent) add(msg string) llm.ConverseReply {
	who, rest := assigneeIn(msg)
	rest = strings.TrimSpace(rest)
	var title, anchor, where string
	if a.zh {
		if m := addAnchorFirstCN.FindStringSubmatch(rest); m != nil {
			anchor, where, title = m[1], m[2], m[3]
		} else if m := addAnchorLastCN.FindStringSubmatch(rest); m != nil {
			title, anchor, where = m[1], m[2], m[3]
		} else if m := addOnlyCN.FindStringSubmatch(rest); m != nil {
			title = m[1]
		}
	} else {
		if m := addAnchorLastEN.FindStringSubmatch(rest); m != nil {
			title, where, anchor = m[1], m[2], m[3]
		} else if m := addAnchorFirstEN.FindStringSubmatch(rest); m != nil {
			where, anchor, title = m[1], m[2], m[3]
		} else if m := addOnlyEN.FindStringSubmatch(rest); m != nil {
			title = m[1]
		}
	}
	title = cleanTitle(title)
	typed, isTyped := a.httpNode(msg)
	if !isTyped {
		typed, isTyped = a.waitNode(msg)
	}
	if isTyped { // the type the person named, titled as they said or by what it does
		if anchor != "" {
			if t := a.givenTitle(strings.Replace(msg, anchor, " ", 1)); t != "" {
				typed.Title = t
			}
		}
		title = typed.Title
	}
	if title == "" {
		return a.ask(a.say("不知道要加什么", "unclear what to add"), a.say("要新增什么节点？请告诉我它的名称，以及放在哪个节点之前或之后。",
			"What should I add? Tell me its name and which node it goes before or after."))
	}
	node := workflow.WorkflowNode{Type: workflow.NodeMilestone, Title: title}
	if who == "" && !isTyped { // a participant named without 由…负责
		who = a.participantNamedIn(strings.Replace(rest, anchor, "", 1))
	}
	switch {
	case isTyped:
		node = typed
	case approvalAsked(title):
		node.Type = workflow.NodeApproval // the person's own step: no agent does it
	case who != "":
		node.Type, node.AssigneeID = workflow.NodeTask, a.participantID(who)
		node.Role = a.roleOf(node.AssigneeID)
	}
	args := workflow.DecisionPayload{Node: &node}
	if anchor = strings.TrimSpace(anchor); anchor != "" {
		id, ask := a.pick(anchor, a.say("「"+anchor+"」", "“"+anchor+"”"))
		if ask != nil {
			return *ask
		}
		if strings.Contains(where, "前") || strings.EqualFold(where, "before") {
			args.Before = []string{id}
		} else {
			args.After = []string{id}
		}
	}
	thought := a.say("用户要新增「"+title+"」", "the person wants “"+title+"” added")
	if node.AssigneeID != "" {
		thought += a.say("，由 "+a.who(node.AssigneeID)+" 负责", ", assigned to "+a.who(node.AssigneeID))
	}
	return act(thought, string(workflow.DecisionCreateNode), args, 0.8)
}

// notAssign masks words where 由 does not give work to anyone (自由讨论,
// 由于), keeping byte offsets (＿ is three bytes, as 由 is).
var notAssign = strings.NewReplacer("自由", "自＿", "理由", "理＿", "缘由", "缘＿", "由于", "＿于")

// assigneeIn finds who the message gives the work to ("由 Zoe 负责",
// "assigned to Zoe") and returns it with the message without that phrase.
func assigneeIn(msg string) (string, string) {
	masked := notAssign.Replace(msg)
	for _, re := range assignPatterns {
		if m := re.FindStringSubmatchIndex(masked); m != nil {
			who := strings.TrimSpace(msg[m[2]:m[3]])
			if who != "" {
				return who, msg[:m[0]] + msg[m[1]:]
			}
		}
	}
	return "", msg
}

// cleanTitle trims a new node's title of quotes, punctuation and filler.
func cleanTitle(s string) string {
	s = strings.TrimSpace(s)
	s = strings.Trim(s, "「」『』“”\"'《》 ，,。.!！?？；;：:")
	for _, w := range []string{"节点", "环节", "步骤", "吧", "一下"} {
		s = strings.TrimSuffix(s, w)
	}
	for _, w := range []string{" step", " node", " task"} {
		if strings.HasSuffix(strings.ToLower(s), w) {
			s = s[:len(s)-len(w)]
		}
	}
	return strings.TrimSpace(strings.Trim(s, "「」“”\"' ，,。."))
}

// participantID resolves who to a participant: its id, the role of its
// task, or the name its task's title gives; anyone else is kept as
// written, so that the Coordinator refuses the task and says why.
func (a agent) participantID(who string) string {
	who = strings.TrimSpace(who)
	for _, id := range a.wf.Participants {
		if strings.EqualFold(id, who) {
			return id
		}
	}
	for _, n := range a.wf.Nodes {
		if n.AssigneeID == "" || !slices.Contains(a.wf.Participants, n.AssigneeID) {
			continue
		}
		if strings.EqualFold(n.Role, who) || strings.EqualFold(nameInTitle(n.Title), who) {
			return n.AssigneeID
		}
	}
	return who
}

// participantNamedIn is the participant whose id, role or name the text
// mentions (the first one), or "".
func (a agent) participantNamedIn(text string) string {
	lower := strings.ToLower(text)
	for _, n := range a.wf.Nodes {
		if n.AssigneeID == "" || !slices.Contains(a.wf.Participants, n.AssigneeID) {
			continue
		}
		for _, s := range []string{n.AssigneeID, n.Role, nameInTitle(n.Title)} {
			if s != "" && findKeyword(lower, strings.ToLower(s)) >= 0 {
				return n.AssigneeID
			}
		}
	}
	return ""
}

// roleOf is the role of a participant's first task ("" for anyone else).
func (a agent) roleOf(id string) string {
	for _, n := range a.wf.Nodes {
		if n.AssigneeID == id && n.Role != "" {
			return n.Role
		}
	}
	return ""
}

// remove deletes the node the message names.
func (a agent) remove(msg string) llm.ConverseReply {
	id, ask := a.pick(msg, a.say("要删除的", "the one to remove"))
	if ask != nil {
		return *ask
	}
	return act(a.say("用户要删除"+a.title(id), "the person wants "+a.title(id)+" removed"), string(workflow.DecisionDeleteNode),
		workflow.DecisionPayload{NodeID: id}, 0.8)
}

// Due dates a message may name besides dateIn's: 第一周, 第2周, week 1.
var (
	weekCN = regexp.MustCompile(`第\s*[0-9一二三四五六七八九十两]+\s*周`)
	weekEN = regexp.MustCompile(`(?i)\b(?:week\s*\d+|(?:the\s+)?(?:first|second|third|fourth|fifth|last|next)\s+week)\b`)
)

// dueIn is the due date a message names, as written, or "".
func dueIn(msg string) string {
	for _, re := range []*regexp.Regexp{weekCN, weekEN} {
		if s := re.FindString(msg); s != "" {
			return strings.TrimSpace(s)
		}
	}
	return dateIn(msg)
}

// reschedule moves the due date of the node the message names (earlier or
// later: the new due comes from the message).
func (a agent) reschedule(msg string, later bool) llm.ConverseReply {
	due := dueIn(msg)
	id, ask := a.pick(strings.Replace(msg, due, "", 1), a.say("要改时间的", "the one to reschedule"))
	if ask != nil {
		return *ask
	}
	if due == "" {
		q := a.say("要把"+a.title(id)+"提前到什么时候？", "When should "+a.title(id)+" be moved up to?")
		if later {
			q = a.say("要把"+a.title(id)+"推迟到什么时候？", "When should "+a.title(id)+" be postponed to?")
		}
		return a.ask(a.say("没有说新的时间", "no new date given"), q)
	}
	return act(a.say("把"+a.title(id)+"的截止时间改为"+due, "move the due date of "+a.title(id)+" to "+due),
		string(workflow.DecisionUpdateNode), workflow.DecisionPayload{NodeID: id, Changes: &workflow.NodeChanges{Due: &due}}, 0.85)
}

// Patterns of an order between two nodes: the first group goes first
// unless the pattern is marked reversed.
var orderPatterns = []struct {
	re       *regexp.Regexp
	reversed bool
}{
	{regexp.MustCompile(`先(.+?)[，,、\s]*(?:再|然后|后)(.+)`), false},
	{regexp.MustCompile(`^(?:把|让)?(.+?)(?:之后|以后|完成后|做完后|结束后)(?:再|才)?(?:开始|做|进行)?(.+)$`), false},
	{regexp.MustCompile(`^(?:把|让)?(.+?)(?:之前|以前)(?:要|得|先)?(?:完成|做完)?(.+)$`), true},
	{regexp.MustCompile(`(?i)^(?:connect\s+)?(.+?)\s+(?:to|->|→)\s+(.+)$`), false},
	{regexp.MustCompile(`(?i)^(.+?)\s+(?:before|then)\s+(.+)$`), false},
	{regexp.MustCompile(`(?i)^(.+?)\s+after\s+(.+)$`), true},
}

// connect adds an edge when the message puts two nodes in an order (先A再B,
// A之后B, A before B); ok is false when it names no two distinct nodes.
func (a agent) connect(msg string) (llm.ConverseReply, bool) {
	for _, p := range orderPatterns {
		m := p.re.FindStringSubmatch(msg)
		if m == nil {
			continue
		}
		from, to := matchNodes(a.wf.Nodes, m[1]), matchNodes(a.wf.Nodes, m[2])
		if len(from) != 1 || len(to) != 1 || from[0] == to[0] {
			continue
		}
		f, t := from[0], to[0]
		if p.reversed {
			f, t = t, f
		}
		return act(a.say(a.title(f)+"完成后再开始"+a.title(t), a.title(t)+" should start after "+a.title(f)),
			string(workflow.DecisionConnect), workflow.DecisionPayload{From: f, To: t}, 0.8), true
	}
	return llm.ConverseReply{}, false
}

// ---- Node matching.

// stopWords are English words that name no node.
var stopWords = []string{"the", "and", "for", "with", "before", "after", "add", "node", "task", "step", "from", "into", "that",
	"this", "why", "did", "does", "fail", "failed", "run", "week", "remove", "delete", "move", "earlier", "later", "then",
	"connect", "insert", "create", "what", "went", "wrong", "please", "can", "you"}

// matchNodes returns the nodes text names: those whose id it contains
// (as a word); else those sharing the most title words with it (Chinese:
// two adjacent characters, "场地确认" ~ "把场地确认提前"; English: words of
// three letters or more, case-insensitively, stop words aside). Nil when
// it shares no word with any title.
func matchNodes(nodes []llm.NodeState, text string) []string {
	if byID := idsIn(nodes, text); len(byID) > 0 {
		return byID
	}
	lower := strings.ToLower(text) + glossesOf(text)
	best, out := 0, []string(nil)
	for _, n := range nodes {
		score := 0
		for _, w := range titleWords(n.Title) {
			if findKeyword(lower, w) >= 0 {
				score++
			}
		}
		switch {
		case score > best:
			best, out = score, []string{n.ID}
		case score == best && score > 0:
			out = append(out, n.ID)
		}
	}
	return out
}

// glosses are the Chinese words a plan's titles use for common English
// ones, so that an English message finds a Chinese plan's nodes ("before
// the event" → 活动当天).
var glosses = map[string]string{
	"event": "活动", "venue": "场地", "speaker": "演讲 嘉宾", "speakers": "演讲 嘉宾", "talk": "演讲 分享",
	"host": "主持", "photographer": "摄影", "photos": "摄影", "catering": "餐饮", "promotion": "宣传",
	"registration": "报名", "review": "复盘", "rehearsal": "彩排", "division": "分工",
}

// glossesOf is the Chinese glosses of the English words in text, each
// after a space ("" when there are none).
func glossesOf(text string) string {
	var b strings.Builder
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if g, ok := glosses[w]; ok {
			b.WriteString(" " + g)
		}
	}
	return b.String()
}

// idsIn returns the nodes whose id text contains as a word.
func idsIn(nodes []llm.NodeState, text string) []string {
	lower := strings.ToLower(text)
	var out []string
	for _, n := range nodes {
		if n.ID != "" && findKeyword(lower, strings.ToLower(n.ID)) >= 0 {
			out = append(out, n.ID)
		}
	}
	return out
}

// titleWords are the distinct words of a title as matchNodes compares
// them: pairs of adjacent Chinese characters and lower-case English words
// of three letters or more that are not stop words.
func titleWords(title string) []string {
	var out []string
	add := func(w string) {
		if !slices.Contains(out, w) && !slices.Contains(stopWords, w) {
			out = append(out, w)
		}
	}
	rs := []rune(strings.ToLower(title))
	for i := 0; i < len(rs); i++ {
		switch {
		case unicode.Is(unicode.Han, rs[i]):
			if i+1 < len(rs) && unicode.Is(unicode.Han, rs[i+1]) {
				add(string(rs[i : i+2]))
			}
		case rs[i] < 128 && unicode.IsLetter(rs[i]):
			j := i
			for j < len(rs) && rs[j] < 128 && (unicode.IsLetter(rs[j]) || unicode.IsDigit(rs[j])) {
				j++
			}
			if j-i >= 3 {
				add(string(rs[i:j]))
			}
			i = j - 1
		}
	}
	return out
}

// approvalAsked reports whether the step a person asks for is an
// approval (审批, 批准, 确认签字, approve, sign-off): the node type the
// person names, not a milestone of that title.
func approvalAsked(title string) bool {
	t := strings.ToLower(title)
	for _, w := range []string{"审批", "批准", "审核", "签字", "approv", "sign-off", "sign off"} {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}
