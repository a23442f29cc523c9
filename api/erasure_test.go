package api_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/towow/towow/api"
	"github.com/towow/towow/projections"
)

// TestEraseAgentData: an external agent erases its own profile with its
// token; another agent, a person and an unknown id get 404; afterwards the
// agent reads "[已删除]" where its name and summary were, in the read model
// and in the directory that new negotiations read, while its id, tags and
// city stay. A person's erasure of someone else is 404 too.
func TestEraseAgentData(t *testing.T) {
	a := newAPI(t)
	adm := testAdminToken
	var one, two api.AgentWrite
	for _, c := range []struct {
		p   any
		out *api.AgentWrite
	}{{externalProfile("user_agent_ext1", "外部一号", "场地提供"), &one}, {externalProfile("user_agent_ext2", "外部二号", "演讲嘉宾"), &two}} {
		if st, p := a.do(t, "POST", "/api/v1/agents", adm, c.p, c.out); st != 201 || c.out.Token == "" {
			t.Fatalf("create: %d %+v", st, p)
		}
	}
	alice := userToken(t, "alice")
	for _, tc := range []struct {
		name, path, token string
	}{
		{"another agent", "/api/v1/agents/user_agent_ext1/data", two.Token},
		{"a person", "/api/v1/agents/user_agent_ext1/data", alice},
		{"an unknown agent, as the admin", "/api/v1/agents/nobody/data", adm},
		{"another person's data", "/api/v1/users/bob/data", alice},
	} {
		if st, p := a.do(t, "DELETE", tc.path, tc.token, nil, nil); st != 404 || p.Code != api.CodeNotFound {
			t.Fatalf("%s: %d %+v; want 404", tc.name, st, p)
		}
	}
	var before projections.AgentView
	if st := a.getJSON(t, "/api/v1/agents/user_agent_ext1?min_cursor="+strconv.FormatInt(one.Cursor, 10), &before); st != 200 || before.Profile.UserName != "外部一号" {
		t.Fatalf("before: %d %+v", st, before.Profile)
	}
	var rec api.EraseUserOutput
	if st, p := a.do(t, "DELETE", "/api/v1/agents/user_agent_ext1/data", one.Token, nil, &rec.Body); st != 200 || len(rec.Body.KeyIDs) != 1 || rec.Body.Cursor == 0 {
		t.Fatalf("the agent erases itself: %d %+v %+v", st, p, rec.Body)
	}
	var after projections.AgentView
	if st := a.getJSON(t, "/api/v1/agents/user_agent_ext1?min_cursor="+strconv.FormatInt(rec.Body.Cursor, 10), &after); st != 200 ||
		after.Profile.UserName != "[已删除]" || after.Profile.ProfileSummary != "[已删除]" ||
		after.Profile.Tags[0] != "场地提供" || after.Profile.Location != before.Profile.Location {
		t.Fatalf("after: %d %+v", st, after.Profile)
	}
	prof, _, ok, err := a.engine.Directory.Get(t.Context(), "user_agent_ext1")
	if err != nil || !ok || prof.UserName != "[已删除]" || prof.ProfileSummary != "[已删除]" {
		t.Fatalf("the directory after the erasure: %+v %v %v", prof, ok, err)
	}
	if other, _, _, _ := a.engine.Directory.Get(t.Context(), "user_agent_ext2"); other.UserName != "外部二号" {
		t.Fatalf("another agent's profile: %+v", other)
	}
}

// TestErasureReachesStreams: the frames of a negotiation's stream are
// revealed once and kept for every follower; after Alice erases her data,
// a stream read again from the start (the same frames, still kept) holds
// none of her words and shows "[已删除]" where they were.
func TestErasureReachesStreams(t *testing.T) {
	a := newAPI(t)
	const secret = "我想在北京办一场AI主题聚会，需要场地和嘉宾，联系人王小明"
	alice := userToken(t, "alice")
	st, _, body := a.asUser(t, alice, "POST", "/api/v1/demand/submit", `{"raw_input":"`+secret+`"}`)
	var sub struct {
		DemandID string `json:"demand_id"`
	}
	if st != 202 || json.Unmarshal([]byte(body), &sub) != nil || sub.DemandID == "" {
		t.Fatalf("alice submits: %d %s", st, body)
	}
	path := "/api/v1/events/negotiations/" + sub.DemandID + "/stream"
	read := func(what string) string {
		r := a.readSSE(t, path, alice, "", 60*time.Second)
		endOf(t, what, r)
		var all strings.Builder
		for _, f := range r.frames {
			all.WriteString(f.data)
		}
		return all.String()
	}
	if before := read("before the erasure"); !strings.Contains(before, "王小明") || strings.Contains(before, "{{towow:") {
		t.Fatalf("before the erasure the stream should show her words, revealed: %.300s", before)
	}
	if st, p := a.do(t, "DELETE", "/api/v1/users/alice/data", alice, nil, nil); st != 200 {
		t.Fatalf("alice erases her data: %d %+v", st, p)
	}
	after := read("after the erasure")
	if strings.Contains(after, "王小明") || strings.Contains(after, "AI主题聚会") || !strings.Contains(after, "[已删除]") {
		t.Fatalf("after the erasure the stream still shows her words, or no erasure mark: %.300s", after)
	}
}
