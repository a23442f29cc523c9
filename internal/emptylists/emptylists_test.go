package emptylists

import (
	"encoding/json"
	"testing"
)

// TestFill: nil slices and maps anywhere in a body, through
// pointers, slices, maps and interfaces, encode as empty; raw JSON and
// optional fields stay as they are; the original value is not written.
func TestFill(t *testing.T) {
	type inner struct {
		Tags  []string          `json:"tags"`
		Meta  map[string]string `json:"meta"`
		Skip  []string          `json:"skip,omitempty"`
		Raw   json.RawMessage   `json:"raw,omitempty"`
		Child *inner            `json:"child,omitempty"`
	}
	type body struct {
		Items []inner `json:"items"`
		Any   any     `json:"any"`
		Ptr   *inner  `json:"ptr"`
		Nil   *inner  `json:"nil"`
	}
	orig := &body{Items: []inner{{Tags: []string{"a"}, Meta: map[string]string{}}, {}}, Any: inner{}, Ptr: &inner{Child: &inner{}}}
	tests := []struct {
		name string
		v    any
		want string
	}{
		{"nil", nil, "null"},
		{"a nil slice", []int(nil), "[]"},
		{"a body", orig, `{"items":[{"tags":["a"],"meta":{}},{"tags":[],"meta":{}}],"any":{"tags":[],"meta":{}},` +
			`"ptr":{"tags":[],"meta":{},"child":{"tags":[],"meta":{}}},"nil":null}`},
		{"nothing to fill", inner{Tags: []string{}, Meta: map[string]string{}}, `{"tags":[],"meta":{}}`},
	}
	for _, tc := range tests {
		b, err := json.Marshal(Fill(tc.v))
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, b, tc.want)
		}
	}
	if orig.Items[1].Tags != nil || orig.Ptr.Tags != nil || orig.Ptr.Child.Meta != nil {
		t.Error("the original body was written")
	}
}
