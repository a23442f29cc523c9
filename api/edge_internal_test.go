package api

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestBadText(t *testing.T) {
	tests := []struct {
		in        string
		multiline bool
		bad       bool
	}{
		{"", false, false},
		{"摄影师 photographer ✓ 😀", false, false},
		{"\uFFFD sent as such", false, false},
		{"a\x00b", false, true},
		{"a\xffb", false, true},
		{"\xed\xa0\x80", false, true}, // a lone surrogate in UTF-8 bytes
		{"line\nbreak", false, true},
		{"line\nbreak\tand tab\r", true, false},
		{"bell\a", true, true},
		{"del\x7f", true, true},
		{"c1\u0085", true, true},
	}
	for _, tc := range tests {
		if got := badText(tc.in, tc.multiline) != ""; got != tc.bad {
			t.Errorf("badText(%q, %v) = %q, want bad=%v", tc.in, tc.multiline, badText(tc.in, tc.multiline), tc.bad)
		}
	}
}

func TestBadPath(t *testing.T) {
	for p, bad := range map[string]bool{
		"/api/v1/demands/d-1":           false,
		"/api/v1/agents/":               false, // a trailing slash is left to routing
		"/api/v1/channels//offers":      true,
		"/api/v1/demands/../etc/passwd": true,
		"/api/v1/demands/./x":           true,
		"/api/v1/demands/..":            true,
		"/api/v1/demands/a\x00":         true,
		"/api/v1/demands/...":           false,
	} {
		if got := badPath(p) != ""; got != bad {
			t.Errorf("badPath(%q) = %q, want bad=%v", p, badPath(p), bad)
		}
	}
}

func TestBadJSON(t *testing.T) {
	tests := []struct {
		body, where string // where "": nothing wrong
	}{
		{`{"raw_input":"聚会\n😀 \ud83d\ude00","user_id":"u1"}`, ""},
		{`{"raw_input":"a\u0000b"}`, "body.raw_input"},
		{`{"raw_input":"\ud800"}`, "body.raw_input"},
		{`{"raw_input":"\ud800\u0041"}`, "body.raw_input"},
		{`{"raw_input":"\udfff"}`, "body.raw_input"},
		{`{"a":{"b":["ok","\u001f"]}}`, "body.a.b[1]"},
		{`[{"x":1},{"y":"\f"}]`, "body[1].y"},
		{`{"k\u0000":"v"}`, `body["k\x00"] (the key)`},
		{"{\"raw\":\"\xc3\x28\"}", "body.raw"},
		{`{"n":1,"b":true,"z":null,"s":"\\u0000 is text"}`, ""},
		{`{not json`, ""}, // the operation refuses it
	}
	for _, tc := range tests {
		where, why := badJSON([]byte(tc.body))
		if where != tc.where || (why == "") != (tc.where == "") {
			t.Errorf("badJSON(%s) = %q %q, want %q", tc.body, where, why, tc.where)
		}
	}
}

// FuzzBadText: what badText accepts is valid UTF-8 without controls.
func FuzzBadText(f *testing.F) {
	for _, s := range []string{"", "abc", "a\x00", "\xff", "\xed\xa0\x80", "摄影", "\t\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if badText(s, true) != "" {
			return
		}
		if !utf8.ValidString(s) {
			t.Fatalf("accepted invalid UTF-8 %q", s)
		}
		for _, r := range s {
			if (r < 0x20 && !strings.ContainsRune("\t\n\r", r)) || r == 0x7f || (r >= 0x80 && r < 0xa0) {
				t.Fatalf("accepted control U+%04X in %q", r, s)
			}
		}
		if badText(s, false) == "" && strings.ContainsAny(s, "\t\n\r") {
			t.Fatalf("accepted a line break in a single-line text %q", s)
		}
	})
}

// FuzzBadJSON: badJSON never panics, and every string of a JSON body it
// accepts decodes to a text badText accepts (no NUL, no control character).
func FuzzBadJSON(f *testing.F) {
	for _, s := range []string{`{"a":"b"}`, `{"a":"\u0000"}`, `["\ud800"]`, `{"a":[1,{"b":"\n"}]}`, `"x"`, `{`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, why := badJSON(data); why != "" || !json.Valid(data) {
			return
		}
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			return
		}
		var walk func(v any)
		walk = func(v any) {
			switch x := v.(type) {
			case string:
				if why := badText(x, true); why != "" {
					t.Fatalf("accepted %s: a string decodes to a bad text (%s)", data, why)
				}
			case []any:
				for _, e := range x {
					walk(e)
				}
			case map[string]any:
				for k, e := range x {
					walk(k)
					walk(e)
				}
			}
		}
		walk(v)
	})
}
