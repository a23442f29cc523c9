package negotiation

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// profileFixture returns a fresh profile that passes ValidateProfile.
func profileFixture() AgentProfile {
	return AgentProfile{
		AgentID:        "user_agent_bob",
		UserName:       "Bob",
		ProfileSummary: "我在北京朝阳区经营一家共享办公空间，可以为技术沙龙提供场地。",
		Location:       "北京",
		Tags:           []string{"场地提供", "活动策划"},
		Capabilities:   map[string]string{"场地": "30人会议室，带投影", "费用": "工作日免费"},
		Interests:      []string{"AI", "创业"},
		Availability:   "周末全天",
	}
}

func TestValidateProfile(t *testing.T) {
	tooMany := func(n int, prefix string) []string {
		s := make([]string, n)
		for i := range s {
			s[i] = fmt.Sprintf("%s%d", prefix, i)
		}
		return s
	}
	manyCaps := make(map[string]string)
	for i := range MaxCapabilities + 1 {
		manyCaps[fmt.Sprintf("能力%d", i)] = "x"
	}
	tests := []struct {
		name   string
		modify func(p *AgentProfile)
		want   string // substring of the error; "" means valid
	}{
		{"valid", func(p *AgentProfile) {}, ""},
		{"minimal", func(p *AgentProfile) { p.Capabilities, p.Interests, p.Availability = nil, nil, "" }, ""},
		{"mode twin", func(p *AgentProfile) { p.Mode = AgentModeTwin }, ""},
		{"mode external", func(p *AgentProfile) { p.Mode = AgentModeExternal }, ""},
		{"mode unknown", func(p *AgentProfile) { p.Mode = "robot" }, `mode: "robot"`},
		{"mode wrong case", func(p *AgentProfile) { p.Mode = "Twin" }, "mode:"},

		{"id without user_agent_ prefix", func(p *AgentProfile) { p.AgentID = "partner_bot_7" }, ""},
		{"id shortest", func(p *AgentProfile) { p.AgentID = "abc" }, ""},
		{"id longest", func(p *AgentProfile) { p.AgentID = "a" + strings.Repeat("b", MaxAgentIDLen-1) }, ""},
		{"id empty", func(p *AgentProfile) { p.AgentID = "" }, "agent_id: empty"},
		{"id too short", func(p *AgentProfile) { p.AgentID = "ab" }, "agent_id:"},
		{"id too long", func(p *AgentProfile) { p.AgentID = "a" + strings.Repeat("b", MaxAgentIDLen) }, "agent_id:"},
		{"id uppercase", func(p *AgentProfile) { p.AgentID = "user_agent_Bob" }, "agent_id:"},
		{"id starts with digit", func(p *AgentProfile) { p.AgentID = "1user" }, "agent_id:"},
		{"id starts with underscore", func(p *AgentProfile) { p.AgentID = "_user" }, "agent_id:"},
		{"id hyphen", func(p *AgentProfile) { p.AgentID = "user-agent-bob" }, "agent_id:"},
		{"id space", func(p *AgentProfile) { p.AgentID = "user agent" }, "agent_id:"},
		{"id non-ascii", func(p *AgentProfile) { p.AgentID = "user_agent_小明" }, "agent_id:"},

		{"name empty", func(p *AgentProfile) { p.UserName = "" }, "user_name: empty"},
		{"name max", func(p *AgentProfile) { p.UserName = strings.Repeat("名", MaxUserNameLen) }, ""},
		{"name too long", func(p *AgentProfile) { p.UserName = strings.Repeat("名", MaxUserNameLen+1) }, "user_name: 65 characters"},
		{"name untrimmed", func(p *AgentProfile) { p.UserName = " Bob" }, "user_name: leading or trailing white space"},
		{"name newline", func(p *AgentProfile) { p.UserName = "Bob\nSmith" }, "user_name: contains control character"},
		{"name invalid utf8", func(p *AgentProfile) { p.UserName = "Bob\xff" }, "user_name: not valid UTF-8"},

		{"summary empty", func(p *AgentProfile) { p.ProfileSummary = "" }, "profile_summary: empty"},
		{"summary max", func(p *AgentProfile) { p.ProfileSummary = strings.Repeat("字", MaxProfileSummaryLen) }, ""},
		{"summary too long", func(p *AgentProfile) { p.ProfileSummary = strings.Repeat("字", MaxProfileSummaryLen+1) }, "profile_summary: 2001 characters"},
		{"summary multiline", func(p *AgentProfile) { p.ProfileSummary = "第一段。\n\n第二段：\t缩进。" }, ""},
		{"summary control char", func(p *AgentProfile) { p.ProfileSummary = "a\x00b" }, "profile_summary: contains control character U+0000"},

		{"location empty", func(p *AgentProfile) { p.Location = "" }, "location: empty"},
		{"location remote", func(p *AgentProfile) { p.Location = "远程" }, ""},
		{"location too long", func(p *AgentProfile) { p.Location = strings.Repeat("北", MaxLocationLen+1) }, "location:"},

		{"tags nil", func(p *AgentProfile) { p.Tags = nil }, "tags: empty"},
		{"tags empty", func(p *AgentProfile) { p.Tags = []string{} }, "tags: empty"},
		{"tags max", func(p *AgentProfile) { p.Tags = tooMany(MaxTags, "标签") }, ""},
		{"tags too many", func(p *AgentProfile) { p.Tags = tooMany(MaxTags+1, "标签") }, "tags: 21 entries, at most 20"},
		{"tag empty", func(p *AgentProfile) { p.Tags = []string{"摄影", "", "主持"} }, "tags[1]: empty"},
		{"tag too long", func(p *AgentProfile) { p.Tags = []string{strings.Repeat("标", MaxTagLen+1)} }, "tags[0]: 33 characters"},
		{"tag duplicate", func(p *AgentProfile) { p.Tags = []string{"摄影", "主持", "摄影"} }, `tags[2]: "摄影" duplicates tags[0]`},
		{"tag duplicate case", func(p *AgentProfile) { p.Tags = []string{"AI", "ai"} }, "tags[1]:"},
		{"tag untrimmed", func(p *AgentProfile) { p.Tags = []string{"摄影 "} }, "tags[0]: leading or trailing"},

		{"capabilities empty map", func(p *AgentProfile) { p.Capabilities = map[string]string{} }, ""},
		{"capabilities too many", func(p *AgentProfile) { p.Capabilities = manyCaps }, "capabilities: 21 entries"},
		{"capabilities empty key", func(p *AgentProfile) { p.Capabilities = map[string]string{"": "x"} }, "capabilities: empty key"},
		{"capabilities key too long", func(p *AgentProfile) {
			p.Capabilities = map[string]string{strings.Repeat("键", MaxCapabilityKeyLen+1): "x"}
		}, "capabilities key"},
		{"capabilities empty value", func(p *AgentProfile) { p.Capabilities = map[string]string{"场地": ""} }, `capabilities["场地"]: empty`},
		{"capabilities value too long", func(p *AgentProfile) {
			p.Capabilities = map[string]string{"场地": strings.Repeat("值", MaxCapabilityLen+1)}
		}, `capabilities["场地"]: 501 characters`},
		{"capabilities value multiline", func(p *AgentProfile) { p.Capabilities = map[string]string{"场地": "A厅\nB厅"} }, ""},

		{"interests too many", func(p *AgentProfile) { p.Interests = tooMany(MaxInterests+1, "兴趣") }, "interests: 21 entries"},
		{"interest empty", func(p *AgentProfile) { p.Interests = []string{"AI", ""} }, "interests[1]: empty"},
		{"interest too long", func(p *AgentProfile) { p.Interests = []string{strings.Repeat("兴", MaxInterestLen+1)} }, "interests[0]:"},
		{"interest duplicate", func(p *AgentProfile) { p.Interests = []string{"Web3", "web3"} }, "interests[1]:"},

		{"availability max", func(p *AgentProfile) { p.Availability = strings.Repeat("周", MaxAvailabilityLen) }, ""},
		{"availability too long", func(p *AgentProfile) { p.Availability = strings.Repeat("周", MaxAvailabilityLen+1) }, "availability: 201 characters"},
		{"availability newline", func(p *AgentProfile) { p.Availability = "周六\n周日" }, "availability: contains control character"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := profileFixture()
			tt.modify(&p)
			err := ValidateProfile(p)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("ValidateProfile() = %v, want nil", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("ValidateProfile() = nil, want error containing %q", tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ValidateProfile() = %q, want it to contain %q", err, tt.want)
			}
			if !errors.Is(err, ErrInvalidProfile) {
				t.Errorf("errors.Is(%v, ErrInvalidProfile) = false", err)
			}
			checkErrorStyle(t, err)
		})
	}
}

func TestNormalizeProfile(t *testing.T) {
	in := AgentProfile{
		AgentID:        " user_agent_bob\n",
		UserName:       "  Bob ",
		ProfileSummary: "\t我是 Bob。 ",
		Location:       " 北京",
		Tags:           []string{" 摄影", "主持 "},
		Capabilities:   map[string]string{" 场地 ": " 会议室 "},
		Interests:      []string{" AI "},
		Availability:   " 周末 ",
		Mode:           " external ",
	}
	want := AgentProfile{
		AgentID:        "user_agent_bob",
		UserName:       "Bob",
		ProfileSummary: "我是 Bob。",
		Location:       "北京",
		Tags:           []string{"摄影", "主持"},
		Capabilities:   map[string]string{"场地": "会议室"},
		Interests:      []string{"AI"},
		Availability:   "周末",
		Mode:           AgentModeExternal,
	}
	got := NormalizeProfile(in)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("NormalizeProfile() = %+v, want %+v", got, want)
	}
	// The input is not modified.
	if in.Tags[0] != " 摄影" || in.Capabilities[" 场地 "] != " 会议室 " {
		t.Errorf("NormalizeProfile modified its argument: %+v", in)
	}
	if err := ValidateProfile(got); err != nil {
		t.Errorf("ValidateProfile(normalized) = %v", err)
	}

	// An empty mode is not defaulted; nil lists stay nil.
	p := NormalizeProfile(AgentProfile{AgentID: "abc"})
	if p.Mode != "" || p.Tags != nil || p.Interests != nil || p.Capabilities != nil {
		t.Errorf("NormalizeProfile(minimal) = %+v", p)
	}
	if p.IsExternal() {
		t.Error("empty mode should be a twin")
	}

	// Keys that collide once trimmed are left as they were, so that
	// validation rejects them.
	c := NormalizeProfile(AgentProfile{Capabilities: map[string]string{"场地": "a", "场地 ": "b", " 费用": "c"}})
	wantCaps := map[string]string{"场地": "a", "场地 ": "b", "费用": "c"}
	if !reflect.DeepEqual(c.Capabilities, wantCaps) {
		t.Errorf("colliding keys: got %v, want %v", c.Capabilities, wantCaps)
	}
	v := profileFixture()
	v.Capabilities = c.Capabilities
	if err := ValidateProfile(v); err == nil || !strings.Contains(err.Error(), "leading or trailing") {
		t.Errorf("ValidateProfile(colliding keys) = %v, want leading or trailing white space", err)
	}
}

func TestProfileErrorFormat(t *testing.T) {
	tests := []struct {
		err  *ProfileError
		want string
	}{
		{&ProfileError{Index: 7, AgentID: "user_agent_x", Reason: "tags: empty"}, "profile #7 (user_agent_x): tags: empty"},
		{&ProfileError{Index: 0, Reason: "not a JSON object"}, "profile #0: not a JSON object"},
		{&ProfileError{Index: -1, Reason: "not a JSON array"}, "profile list: not a JSON array"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
		if !errors.Is(tt.err, ErrInvalidProfile) {
			t.Errorf("errors.Is(%v, ErrInvalidProfile) = false", tt.err)
		}
		checkErrorStyle(t, tt.err)
	}
}

// profileFixtureJSON returns the JSON object of a valid profile with the given id,
// with extra raw fields spliced in (or replacing fields of the same name).
func profileFixtureJSON(t *testing.T, id string, override map[string]string) string {
	t.Helper()
	p := profileFixture()
	p.AgentID = id
	data, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	for k, v := range override {
		if v == "" {
			delete(m, k)
		} else {
			m[k] = json.RawMessage(v)
		}
	}
	data, err = json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestParseProfilesMixed(t *testing.T) {
	body := "[\n  " + strings.Join([]string{
		profileFixtureJSON(t, "user_agent_a", nil),
		profileFixtureJSON(t, "user_agent_b", map[string]string{"tags": `[]`}),
		profileFixtureJSON(t, "user_agent_c", map[string]string{"mode": `"external"`, "user_name": `"  Carol  "`}),
		profileFixtureJSON(t, "user_agent_d", map[string]string{"tags": `"摄影"`}),
		profileFixtureJSON(t, "user_agent_e", map[string]string{"capabilities": "", "interests": "", "availability": ""}),
	}, " ,\n  ") + "\n]\n"
	got, errs := ParseProfiles([]byte(body))

	var ids []string
	for _, p := range got {
		ids = append(ids, p.AgentID)
	}
	if want := []string{"user_agent_a", "user_agent_c", "user_agent_e"}; !reflect.DeepEqual(ids, want) {
		t.Errorf("loaded %v, want %v", ids, want)
	}
	if len(got) == 3 {
		if got[1].UserName != "Carol" || !got[1].IsExternal() {
			t.Errorf("profile c = %+v, want trimmed name and external mode", got[1])
		}
		if want := profileFixture(); !reflect.DeepEqual(got[0].Tags, want.Tags) || !reflect.DeepEqual(got[0].Capabilities, want.Capabilities) {
			t.Errorf("profile a = %+v", got[0])
		}
	}
	if len(errs) != 2 {
		t.Fatalf("errors = %v, want 2", errs)
	}
	if e := errs[0]; e.Index != 1 || e.AgentID != "user_agent_b" || e.Reason != "tags: empty" {
		t.Errorf("errs[0] = %+v", e)
	}
	if got, want := errs[0].Error(), "profile #1 (user_agent_b): tags: empty"; got != want {
		t.Errorf("errs[0].Error() = %q, want %q", got, want)
	}
	if e := errs[1]; e.Index != 3 || e.AgentID != "user_agent_d" || !strings.Contains(e.Reason, "tags") {
		t.Errorf("errs[1] = %+v, want index 3, user_agent_d, a reason about tags", e)
	}
}

func TestParseProfilesEntryErrors(t *testing.T) {
	good := profileFixtureJSON(t, "user_agent_ok", nil)
	tests := []struct {
		name   string
		entry  string
		wantID string
		want   string // substring of the reason
	}{
		{"null", `null`, "", "not a JSON object"},
		{"string", `"user_agent_x"`, "", "not a JSON object"},
		{"array", `[1]`, "", "not a JSON object"},
		{"unknown field", profileFixtureJSON(t, "user_agent_x", map[string]string{"age": `30`}), "user_agent_x", `unknown field "age"`},
		{"wrong type tags", profileFixtureJSON(t, "user_agent_x", map[string]string{"tags": `"摄影"`}), "user_agent_x", "tags"},
		{"wrong type capabilities", profileFixtureJSON(t, "user_agent_x", map[string]string{"capabilities": `{"场地": 30}`}), "user_agent_x", "capabilities"},
		{"wrong type capabilities list", profileFixtureJSON(t, "user_agent_x", map[string]string{"capabilities": `["场地"]`}), "user_agent_x", "capabilities"},
		{"wrong type agent_id", profileFixtureJSON(t, "", map[string]string{"agent_id": `42`}), "", "agent_id"},
		{"missing agent_id", profileFixtureJSON(t, "", map[string]string{"agent_id": ""}), "", "agent_id: empty"},
		{"bad agent_id", profileFixtureJSON(t, "User-X", nil), "User-X", "agent_id:"},
		{"missing user_name", profileFixtureJSON(t, "user_agent_x", map[string]string{"user_name": ""}), "user_agent_x", "user_name: empty"},
		{"missing summary", profileFixtureJSON(t, "user_agent_x", map[string]string{"profile_summary": `"  "`}), "user_agent_x", "profile_summary: empty"},
		{"missing location", profileFixtureJSON(t, "user_agent_x", map[string]string{"location": ""}), "user_agent_x", "location: empty"},
		{"missing tags", profileFixtureJSON(t, "user_agent_x", map[string]string{"tags": ""}), "user_agent_x", "tags: empty"},
		{"null tags", profileFixtureJSON(t, "user_agent_x", map[string]string{"tags": "null"}), "user_agent_x", "tags: empty"},
		{"blank tag", profileFixtureJSON(t, "user_agent_x", map[string]string{"tags": `["摄影", " "]`}), "user_agent_x", "tags[1]: empty"},
		{"duplicate tag after trim", profileFixtureJSON(t, "user_agent_x", map[string]string{"tags": `["摄影", " 摄影"]`}), "user_agent_x", "tags[1]:"},
		{"bad mode", profileFixtureJSON(t, "user_agent_x", map[string]string{"mode": `"human"`}), "user_agent_x", "mode:"},
		{"duplicate id", good, "user_agent_ok", "agent_id: duplicate of profile #0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := "[" + good + "," + tt.entry + "]"
			got, errs := ParseProfiles([]byte(body))
			if len(got) != 1 || got[0].AgentID != "user_agent_ok" {
				t.Errorf("loaded %+v, want only user_agent_ok", got)
			}
			if len(errs) != 1 {
				t.Fatalf("errors = %v, want 1", errs)
			}
			e := errs[0]
			if e.Index != 1 || e.AgentID != tt.wantID || !strings.Contains(e.Reason, tt.want) {
				t.Errorf("error = %+v, want index 1, agent id %q, reason containing %q", e, tt.wantID, tt.want)
			}
			checkErrorStyle(t, e)
		})
	}
}

func TestParseProfilesDuplicateOfRejected(t *testing.T) {
	// A rejected entry does not reserve its agent_id.
	body := "[" + profileFixtureJSON(t, "user_agent_x", map[string]string{"tags": `[]`}) + "," +
		profileFixtureJSON(t, "user_agent_x", nil) + "," + profileFixtureJSON(t, "user_agent_x", nil) + "]"
	got, errs := ParseProfiles([]byte(body))
	if len(got) != 1 || got[0].AgentID != "user_agent_x" {
		t.Errorf("loaded %+v, want one user_agent_x", got)
	}
	if len(errs) != 2 || errs[0].Index != 0 || errs[1].Index != 2 ||
		errs[1].Reason != "agent_id: duplicate of profile #1" {
		t.Errorf("errors = %v", errs)
	}
}

func TestParseProfilesNotAnArray(t *testing.T) {
	for _, body := range []string{
		``,
		`   `,
		`null`,
		`{}`,
		profileFixtureJSON(t, "user_agent_x", nil),
		`"profiles"`,
		`42`,
		`[`,
		`[{"agent_id": "user_agent_x",}]`,
		`[] []`,
		`[] x`,
	} {
		got, errs := ParseProfiles([]byte(body))
		if got != nil {
			t.Errorf("ParseProfiles(%q) loaded %v", body, got)
		}
		if len(errs) != 1 || errs[0].Index != -1 || errs[0].AgentID != "" ||
			!strings.HasPrefix(errs[0].Reason, "not a JSON array") {
			t.Errorf("ParseProfiles(%q) errors = %v, want one with index -1", body, errs)
			continue
		}
		if !strings.HasPrefix(errs[0].Error(), "profile list: not a JSON array") {
			t.Errorf("Error() = %q", errs[0].Error())
		}
	}
}

func TestParseProfilesEmpty(t *testing.T) {
	for _, body := range []string{`[]`, " \n[ ]\n"} {
		got, errs := ParseProfiles([]byte(body))
		if len(got) != 0 || errs != nil {
			t.Errorf("ParseProfiles(%q) = %v, %v; want no profiles and nil errors", body, got, errs)
		}
	}
}

func TestParseProfilesRoundTrip(t *testing.T) {
	in := []AgentProfile{profileFixture(), profileFixture()}
	in[1].AgentID = "external_partner"
	in[1].Mode = AgentModeExternal
	in[1].Capabilities = nil
	data, err := json.MarshalIndent(in, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got, errs := ParseProfiles(data)
	if errs != nil {
		t.Fatalf("errors = %v", errs)
	}
	if !reflect.DeepEqual(got, in) {
		t.Errorf("ParseProfiles(Marshal(x)) = %+v, want %+v", got, in)
	}
}
