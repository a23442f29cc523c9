package llm

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/towow/towow/domain/workflow"
)

func TestParseConverse(t *testing.T) {
	in := sampleConverseInput()
	due := "第一周"
	tests := []struct {
		name  string
		reply string
		want  workflow.AgentStep
		fail  string // part of the error; "" when it parses
	}{
		{name: "tool step", reply: replyConverse, want: workflow.AgentStep{Thought: "Zoe 不是参与者，彩排改由 Alice 负责",
			Tool: "create_node", Confidence: 0.8, Args: workflow.DecisionPayload{After: []string{"milestone-1"},
				Node: &workflow.WorkflowNode{Type: workflow.NodeTask, Title: "彩排", AssigneeID: "user_agent_alice"}}}},
		{name: "reply step", reply: `{"thought":"已经改好","reply":" 已把「场地确认」提前到第一周。 "}`,
			want: workflow.AgentStep{Thought: "已经改好", Reply: "已把「场地确认」提前到第一周。", Confidence: 0.5}},
		{name: "English reply in a fence", reply: "Here you go:\n```json\n{\"thought\":\"done\",\"reply\":\"The rehearsal was added.\"}\n```",
			want: workflow.AgentStep{Thought: "done", Reply: "The rehearsal was added.", Confidence: 0.5}},
		{name: "tool name normalised, ids resolved", reply: `{"thought":"看看","tool":"Get-Node","args":{"node_id":" TASK-1 "},"confidence":"85%"}`,
			want: workflow.AgentStep{Thought: "看看", Tool: "get_node", Args: workflow.DecisionPayload{NodeID: "task-1"}, Confidence: 0.85}},
		{name: "a title for an id", reply: `{"thought":"t","tool":"update node","args":{"node_id":"场地确认","changes":{"due":"第一周"}},"confidence":2}`,
			want: workflow.AgentStep{Thought: "t", Tool: "update_node", Confidence: 0.02,
				Args: workflow.DecisionPayload{NodeID: "milestone-1", Changes: &workflow.NodeChanges{Due: &due}}}},
		{name: "unknown node id kept for the Coordinator", reply: `{"thought":"t","tool":"connect","args":{"from":"task-9","to":"milestone-1"}}`,
			want: workflow.AgentStep{Thought: "t", Tool: "connect", Confidence: 0.5, Args: workflow.DecisionPayload{From: "task-9", To: "milestone-1"}}},
		{name: "a single id for after", reply: `{"thought":"t","tool":"create_node","args":{"node":{"type":"milestone","title":"彩排"},"after":"milestone-1","before":["", "task-7", "task-7"]}}`,
			want: workflow.AgentStep{Thought: "t", Tool: "create_node", Confidence: 0.5, Args: workflow.DecisionPayload{
				Node: &workflow.WorkflowNode{Type: workflow.NodeMilestone, Title: "彩排"}, After: []string{"milestone-1"}, Before: []string{"task-7"}}}},
		{name: "tool and reply: the tool wins", reply: `{"thought":"t","tool":"execute_workflow","args":{},"reply":"开始了"}`,
			want: workflow.AgentStep{Thought: "t", Tool: "execute_workflow", Confidence: 0.5}},
		{name: "ask_user with the question in reply", reply: `{"thought":"t","tool":"ask_user","reply":"Which node do you mean?"}`,
			want: workflow.AgentStep{Thought: "t", Tool: "ask_user", Confidence: 0.5, Args: workflow.DecisionPayload{Reason: "Which node do you mean?"}}},
		{name: "engine words in a reply", reply: `{"thought":"t","reply":"ok: create_node applied, workflow version 3. 已用 create_node 新增彩排。"}`,
			want: workflow.AgentStep{Thought: "t", Reply: "已用 新增步骤 新增彩排。", Confidence: 0.5}},
		{name: "a tool named in a question", reply: `{"thought":"t","tool":"ask_user","args":{"reason":"要我 delete_node 哪一步？"}}`,
			want: workflow.AgentStep{Thought: "t", Tool: "ask_user", Confidence: 0.5, Args: workflow.DecisionPayload{Reason: "要我 删除步骤 哪一步？"}}},
		{name: "reply named as a tool", reply: `{"thought":"t","tool":"final_answer","reply":"好的"}`,
			want: workflow.AgentStep{Thought: "t", Reply: "好的", Confidence: 0.5}},
		{name: "neither", reply: `{"thought":"想了想","args":{}}`, fail: "neither a tool nor a reply"},
		{name: "blank reply", reply: `{"thought":"t","reply":"   "}`, fail: "neither a tool nor a reply"},
		{name: "unknown tool", reply: `{"thought":"t","tool":"send_email","args":{}}`, fail: `unknown tool "send_email"`},
		{name: "reply word without a reply", reply: `{"thought":"t","tool":"reply"}`, fail: "unknown tool"},
		{name: "args not an object", reply: `{"thought":"t","tool":"delete_node","args":"task-1"}`, fail: "args must be an object"},
		{name: "args of the wrong types", reply: `{"thought":"t","tool":"move_node","args":{"node_id":"task-1","position":"left"}}`,
			fail: "args must be an object"},
		{name: "ask_user without a question", reply: `{"thought":"t","tool":"ask_user","args":{}}`, fail: "ask_user without a question"},
		{name: "not the prompt's fields", reply: `{"answer":42}`, fail: "without any of the fields"},
		{name: "garbage", reply: `我不知道`, fail: "no json object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Converse.parse(tt.reply, &in)
			if tt.fail != "" {
				if !errors.Is(err, errInvalidReply) || !strings.Contains(err.Error(), tt.fail) {
					t.Fatalf("err = %v, want an invalid reply saying %q (got %+v)", err, tt.fail, got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
			if ps := checkConverse(&in, got); ps != nil {
				t.Error(ps)
			}
		})
	}
}

// TestConverseReplyEncodes: the reply shape encodes as one of the two
// shapes the template asks for, and decodes back.
func TestConverseReplyEncodes(t *testing.T) {
	for _, tt := range []struct {
		r    ConverseReply
		want string
	}{
		{ConverseReply{Thought: "t", Tool: "execute_workflow", Args: ArgsOf(workflow.DecisionPayload{}), Confidence: NumberScalar(0.9)},
			`{"thought":"t","tool":"execute_workflow","args":{},"confidence":0.9}`},
		{ConverseReply{Thought: "t", Tool: "get_node", Args: ArgsOf(workflow.DecisionPayload{NodeID: "task-1"}), Confidence: NumberScalar(0.8)},
			`{"thought":"t","tool":"get_node","args":{"node_id":"task-1"},"confidence":0.8}`},
		{ConverseReply{Thought: "t", Reply: "好的"}, `{"thought":"t","reply":"好的"}`},
	} {
		b, err := marshalRaw(tt.r)
		if err != nil || string(b) != tt.want {
			t.Errorf("encoded %s, %v; want %s", b, err, tt.want)
		}
	}
}

// TestFallbackConverse: when the model fails the step is a reply in the
// person's language saying nothing was done, never an action.
func TestFallbackConverse(t *testing.T) {
	in := sampleConverseInput()
	got := Converse.fallback(&in)
	if got.Tool != "" || !strings.Contains(got.Reply, "无法处理") || !strings.Contains(got.Thought, fallbackReason) ||
		checkConverse(&in, got) != nil {
		t.Errorf("fallback = %+v", got)
	}
	en := in
	en.Message = "Add a rehearsal before the event"
	if f := Converse.fallback(&en); f.Tool != "" || !strings.Contains(f.Reply, "can't work on this request") {
		t.Errorf("English fallback = %+v", f)
	}
	if f := Converse.fallback(&ConverseInput{}); f.Tool != "" || f.Reply == "" {
		t.Errorf("fallback of a zero input = %+v", f)
	}
	c := newTestClient(&scripted{fn: fail}, Config{})
	out, rec, err := Call(t.Context(), c, Converse, in)
	if err != nil || !reflect.DeepEqual(out, got) || !rec.FallbackUsed || rec.PromptKey != string(PromptConverse) {
		t.Errorf("Converse with a failing provider = %+v, %+v, %v", out, rec, err)
	}
}

// TestConversePromptNamesEveryTool: the template lists every tool the
// domain has, so a new decision type cannot be left out of the prompt.
func TestConversePromptNamesEveryTool(t *testing.T) {
	in := sampleConverseInput()
	prompt, err := render(PromptConverse, &in)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range workflow.ConversationTools() {
		if !strings.Contains(prompt, "**"+tool+"**") {
			t.Errorf("the prompt does not list %s", tool)
		}
	}
}
