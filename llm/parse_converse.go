package llm

import (
	"slices"
	"strings"
	"unicode"

	"github.com/towow/towow/domain"
)

// ---- 11 对话

// conversationTools maps the enumKey of each conversation tool to its name,
// so that "Get-Node", "get node" and "GET_NODE" are get_node.
var conversationTools = func() map[string]string {
	m := map[string]string{}
	for _, t := range domain.ConversationTools() {
		m[enumKey(t)] = t
	}
	return m
}()

// replyTools are words a model may write as its tool when it replies
// instead of acting; with a reply they mean no tool.
var replyTools = map[string]bool{"reply": true, "finalanswer": true, "final": true, "answer": true, "respond": true,
	"none": true, "finish": true, "回复": true}

// defaultStepConfidence is an action's confidence when the reply gives none.
const defaultStepConfidence = 0.5

// parseConverse parses prompt 11's reply into a domain.AgentStep. The tool
// must be one of domain.ConversationTools (case, spaces, dashes and
// underscores do not matter); a step needs a tool or a non-empty reply.
// When both are given the tool wins and the reply is dropped (the turn
// goes on with the tool's observation), except that ask_user without a
// question takes the reply as its question. args must be an object when
// present (a single id for after or before is taken as a list); node ids
// are trimmed and resolved against the workflow (exactly, else
// case-insensitively or by a node's exact title when that names one node),
// and ids that name no node are kept as written: the Coordinator refuses
// them, and the agent reads why. The confidence is clamped to 0-1
// (percentages scaled; absent: 0.5). A reply step has no arguments.
func parseConverse(text string, in *ConverseInput) (domain.AgentStep, error) {
	var raw ConverseReply
	if err := decode(text, &raw, "thought", "tool", "args", "reply"); err != nil {
		return domain.AgentStep{}, err
	}
	out := domain.AgentStep{
		Thought:    clip(string(raw.Thought), maxTextRunes),
		Reply:      clip(string(raw.Reply), maxTextRunes),
		Confidence: confidenceFraction(raw.Confidence, defaultStepConfidence),
	}
	if tool := strings.TrimSpace(string(raw.Tool)); tool != "" {
		name, ok := lookupEnum(conversationTools, tool)
		switch {
		case ok:
			out.Tool = name
		case replyTools[enumKey(tool)] && out.Reply != "":
		default:
			return domain.AgentStep{}, invalid("unknown tool %q (one of %s)", clip(tool, maxShortRunes),
				strings.Join(domain.ConversationTools(), ", "))
		}
	}
	if raw.Args.Present && !raw.Args.OK {
		return domain.AgentStep{}, invalid("args must be an object of the tool's arguments: %s", raw.Args.Err)
	}
	if out.Tool == "" {
		if out.Reply == "" {
			return domain.AgentStep{}, invalid("the step has neither a tool nor a reply")
		}
		return out, nil
	}
	out.Args = cleanArgs(raw.Args.V, in)
	if out.Tool == domain.ToolAskUser && out.Args.Reason == "" {
		out.Args.Reason = out.Reply
	}
	if out.Tool == domain.ToolAskUser && out.Args.Reason == "" {
		return domain.AgentStep{}, invalid("ask_user without a question (args.reason)")
	}
	out.Reply = ""
	return out, nil
}

// cleanArgs trims a tool's arguments and resolves the node ids they name
// (nodeRef); it drops nothing but empty and repeated ids of after/before.
func cleanArgs(p domain.DecisionPayload, in *ConverseInput) domain.DecisionPayload {
	ref := func(s string) string { return nodeRef(in.Workflow.Nodes, s) }
	p.NodeID, p.From, p.To = ref(p.NodeID), ref(p.From), ref(p.To)
	p.Reason = clip(p.Reason, maxTextRunes)
	ids := func(list []string) []string {
		var out []string
		for _, s := range list {
			if s = ref(s); s != "" && !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
		return out
	}
	p.After, p.Before = ids(p.After), ids(p.Before)
	if p.Node != nil {
		n := *p.Node
		n.ID, n.Title, n.AssigneeID = strings.TrimSpace(n.ID), strings.TrimSpace(n.Title), strings.TrimSpace(n.AssigneeID)
		p.Node = &n
	}
	return p
}

// nodeRef resolves a node reference of a reply: the id of the node it
// names exactly, else case-insensitively, else by its exact title
// (case-insensitively) when that names one node; otherwise s as written
// (trimmed).
func nodeRef(nodes []NodeState, s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	for _, match := range []func(NodeState) bool{
		func(n NodeState) bool { return n.ID == s },
		func(n NodeState) bool { return strings.EqualFold(n.ID, s) },
		func(n NodeState) bool { return strings.EqualFold(strings.TrimSpace(n.Title), s) },
	} {
		var found []string
		for _, n := range nodes {
			if match(n) && !slices.Contains(found, n.ID) {
				found = append(found, n.ID)
			}
		}
		if len(found) == 1 {
			return found[0]
		}
	}
	return s
}

// hasHan reports whether s has a Chinese character (the person writes
// Chinese).
func hasHan(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.Is(unicode.Han, r) }) >= 0
}
