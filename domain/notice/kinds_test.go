package notice

import (
	"reflect"
	"strings"
	"testing"
)

// TestKindEnum: a notice's kind field lists exactly Kinds, in order, as
// its OpenAPI enum.
func TestKindEnum(t *testing.T) {
	f, _ := reflect.TypeFor[Posted]().FieldByName("Kind")
	var want []string
	for _, k := range Kinds {
		want = append(want, string(k))
	}
	if got := f.Tag.Get("enum"); got != strings.Join(want, ",") {
		t.Fatalf("Posted.Kind's enum is %q, the kinds are %q", got, strings.Join(want, ","))
	}
}
