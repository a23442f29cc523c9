package apifuzz

import (
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	doc := map[string]any{}
	if err := decode([]byte(`{"components":{"schemas":{
		"Item":{"type":"object","additionalProperties":false,"required":["id","kind"],"properties":{
			"id":{"type":"string","minLength":1,"maxLength":4},
			"kind":{"type":"string","enum":["a","b"]},
			"n":{"type":"integer","minimum":0,"maximum":10},
			"at":{"type":"string","format":"date-time"},
			"tags":{"type":["array","null"],"items":{"type":"string"},"maxItems":2},
			"extra":{"type":"object","additionalProperties":{"type":"number"}},
			"next":{"$ref":"#/components/schemas/Item"}}}}}}`), &doc); err != nil {
		t.Fatal(err)
	}
	item := map[string]any{"$ref": "#/components/schemas/Item"}
	for _, tc := range []struct {
		body, wantErr string // wantErr: a part of the error, "" for valid
	}{
		{`{"id":"x","kind":"a"}`, ""},
		{`{"id":"x","kind":"a","n":3,"at":"2026-11-24T10:00:00Z","tags":null,"extra":{"p":1.5},"next":{"id":"y","kind":"b"}}`, ""},
		{`{"id":"x","kind":"a","tags":["p","q"]}`, ""},
		{`{"kind":"a"}`, `required member "id"`},
		{`{"id":"x","kind":"c"}`, "body.kind: c is not one of"},
		{`{"id":"x","kind":"a","zz":1}`, `member "zz" is not in the schema`},
		{`{"id":"","kind":"a"}`, "at least 1"},
		{`{"id":"長長長長長","kind":"a"}`, "at most 4"},
		{`{"id":"x","kind":"a","n":1.5}`, "body.n: number where the schema wants integer"},
		{`{"id":"x","kind":"a","n":11}`, "above the maximum"},
		{`{"id":"x","kind":"a","n":-1}`, "below the minimum"},
		{`{"id":"x","kind":"a","at":"yesterday"}`, "not a date-time"},
		{`{"id":"x","kind":"a","tags":["p","q","r"]}`, "3 items"},
		{`{"id":"x","kind":"a","tags":[1]}`, "body.tags[0]: integer where the schema wants string"},
		{`{"id":"x","kind":"a","extra":{"p":"no"}}`, "body.extra.p: string"},
		{`{"id":"x","kind":"a","next":{"id":"y"}}`, `body.next: required member "kind"`},
		{`null`, "null where the schema wants object"},
		{`[]`, "array where the schema wants object"},
	} {
		var v any
		if err := decode([]byte(tc.body), &v); err != nil {
			t.Fatal(err)
		}
		err := validate(doc, item, v, "body")
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("%s: %v", tc.body, err)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("%s: error %v, want one with %q", tc.body, err, tc.wantErr)
		}
	}
	if err := validate(doc, map[string]any{"$ref": "#/components/schemas/Nope"}, nil, "body"); err == nil {
		t.Error("a reference that leads nowhere passed")
	}
}

func TestCheckFrames(t *testing.T) {
	for _, tc := range []struct {
		raw string
		ok  bool
	}{
		{"id: 1\nevent: towow.demand.submitted\ndata: {\"a\":1}\n\n: keep-alive\n\n", true},
		{"id: 1\ndata: {\"a\":1}\n\nid: 2\ndata: {\"cut", true}, // cut off by the hang-up
		{"id: 1\ndata: {not json}\n\n", false},
		{"", true},
	} {
		if err := checkFrames([]byte(tc.raw)); (err == nil) != tc.ok {
			t.Errorf("%q: %v", tc.raw, err)
		}
	}
}
