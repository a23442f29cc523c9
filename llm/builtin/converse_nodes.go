package builtin

import (
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/towow/towow/domain/workflow"
)

// The node types a person names when adding a step: a message with a web
// address adds an http node ("创建一个 HTTP 节点，POST 到 https://…，内容
// 是 address={{nodes.venue.output.address}}"), one that says to wait until
// a time adds a wait node ("加一个等待，等到 2026-12-01 10:00"), an
// approval step an approval node (approvalAsked); the Coordinator judges
// them as any other.

var (
	// urlPattern is a web address in a message (up to a space, a quote or
	// Chinese punctuation).
	urlPattern = regexp.MustCompile(`https?://[^\s，,。；;！!？?"'“”「」（）()]+`)
	// methodPattern is an HTTP method named as a word.
	methodPattern = regexp.MustCompile(`\b(GET|POST|PUT|PATCH|DELETE)\b`)
	// bodyPair is key=value or key: value in a message's body part.
	bodyPair = regexp.MustCompile(`([A-Za-z_][A-Za-z0-9_.-]*)\s*[=:：]\s*([^\s，,；;]+)`)
	// bodyStart is where a message starts its body ("内容是", "body").
	bodyStart = regexp.MustCompile(`(?i)(?:内容是|内容为|内容|请求体|正文|参数|body|payload|with)\s*[:：]?`)
	// quotedTitle is a title given in quotes, or after 叫 / 名为 / titled.
	quotedTitle = regexp.MustCompile(`(?:「([^」]+)」|“([^”]+)”|(?:叫做|叫|名为|标题是|titled|called)\s*([^，,。\s]+))`)
	// waitTime is a time a wait waits for: 2026-12-01 10:00, 2026-12-01T10:00, 2026-12-01.
	waitTime = regexp.MustCompile(`(\d{4}-\d{1,2}-\d{1,2})(?:[T\s]+(\d{1,2}:\d{2}))?`)
)

// httpNode is the http node a message asks for, with its title, or
// false when it names no web address.
func (a agent) httpNode(msg string) (workflow.WorkflowNode, bool) {
	raw := urlPattern.FindString(msg)
	if raw == "" {
		return workflow.WorkflowNode{}, false
	}
	raw = strings.TrimRight(raw, ".")
	n := workflow.WorkflowNode{Type: workflow.NodeHTTP, URL: raw}
	rest := strings.Replace(msg, raw, " ", 1)
	if m := methodPattern.FindString(strings.ToUpper(rest)); m != "" && m != "POST" {
		n.Method = m
	}
	if loc := bodyStart.FindStringIndex(rest); loc != nil {
		for _, kv := range bodyPair.FindAllStringSubmatch(rest[loc[1]:], -1) {
			if n.Body == nil {
				n.Body = map[string]string{}
			}
			n.Body[kv[1]] = strings.Trim(kv[2], "「」“”\"'")
		}
	}
	n.Title = a.givenTitle(rest)
	if n.Title == "" {
		host := raw
		if u, err := url.Parse(raw); err == nil && u.Host != "" {
			host = u.Host
		}
		n.Title = a.say("调用 "+host, "Call "+host)
	}
	return n, true
}

// waitNode is the wait node a message asks for ("等到 <time>", "wait
// until <time>"), or false when it asks for no wait with a time.
func (a agent) waitNode(msg string) (workflow.WorkflowNode, bool) {
	lower := strings.ToLower(msg)
	if !hasAny(lower, "等待", "等到", "wait") {
		return workflow.WorkflowNode{}, false
	}
	m := waitTime.FindStringSubmatch(msg)
	if m == nil {
		return workflow.WorkflowNode{}, false
	}
	loc := a.now.Location()
	if a.now.IsZero() {
		loc = time.UTC
	}
	clock := m[2]
	if clock == "" {
		clock = "09:00"
	}
	at, err := time.ParseInLocation("2006-1-2 15:04", m[1]+" "+clock, loc)
	if err != nil {
		return workflow.WorkflowNode{}, false
	}
	title := a.givenTitle(strings.Replace(msg, m[0], " ", 1))
	if title == "" {
		title = a.say("等到 "+at.Format("2006-01-02 15:04"), "Wait until "+at.Format("2006-01-02 15:04"))
	}
	return workflow.WorkflowNode{Type: workflow.NodeWait, Title: title, WaitUntil: at}, true
}

// givenTitle is the title a message gives a new step in quotes or after
// 叫 / titled, or "".
func (a agent) givenTitle(msg string) string {
	m := quotedTitle.FindStringSubmatch(msg)
	if m == nil {
		return ""
	}
	for _, s := range m[1:] {
		if s = cleanTitle(s); s != "" {
			return s
		}
	}
	return ""
}
