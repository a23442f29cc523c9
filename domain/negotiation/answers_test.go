package negotiation

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/towow/towow/domain/event"
)

func TestUnderstoodWritesEmptyObjects(t *testing.T) {
	// As the Coordinator always did: deep_understanding and context are
	// recorded even when prompt 1 left them empty.
	_, _, data, err := event.EncodePayload(Understanding{SurfaceDemand: "s", CapabilityTags: []string{"x"},
		Confidence: ConfidenceLow}.Understood("d"))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"demand_id":"d","surface_demand":"s","capability_tags":["x"],"confidence":"low","deep_understanding":{},"context":{}}`; string(data) != want {
		t.Errorf("got  %s\nwant %s", data, want)
	}
}

func TestUnderstandingOfAnEventWithoutOptionalParts(t *testing.T) {
	e := &DemandUnderstood{DemandID: "d", SurfaceDemand: "s", CapabilityTags: []string{"x"}, Confidence: ConfidenceMedium}
	want := Understanding{SurfaceDemand: "s", CapabilityTags: []string{"x"}, Confidence: ConfidenceMedium}
	if got := e.Understanding(); !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestDemandUnderstandRecordsOnce(t *testing.T) {
	d := &DemandState{}
	evs, err := d.Submit(SubmitDemand{DemandID: "d-1", UserID: "u", RawInput: "办一场聚会"})
	if err != nil {
		t.Fatal(err)
	}
	d.Apply(evs[0])
	u := Understanding{SurfaceDemand: "聚会", CapabilityTags: []string{"场地"}, Confidence: ConfidenceHigh}
	evs, err = d.Understand(u)
	if err != nil || len(evs) != 1 {
		t.Fatalf("Understand = %v, %v", evs, err)
	}
	if want := u.Understood("d-1"); !reflect.DeepEqual(evs[0], want) {
		t.Errorf("event %+v, want %+v", evs[0], want)
	}
	d.Apply(evs[0])
	if evs, err = d.Understand(u); evs != nil || err != nil {
		t.Errorf("second Understand = %v, %v; want nothing", evs, err)
	}
}

// apiRequired lists the fields of t an HTTP API derived from its tags
// requires (Huma's rule: required unless the json tag has omitempty or
// omitzero, overridden by a required tag).
func apiRequired(t reflect.Type) []string {
	var out []string
	for f := range t.Fields() {
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		req := !strings.Contains(opts, "omitempty") && !strings.Contains(opts, "omitzero")
		if v, ok := f.Tag.Lookup("required"); ok {
			req, _ = strconv.ParseBool(v)
		}
		if req {
			out = append(out, name)
		}
	}
	return out
}

func TestAnswersRequireWhatTheAPIRequires(t *testing.T) {
	// The external agents' bodies require only the decision and the
	// feedback type; the answer types must keep it so when they embed them.
	if got := apiRequired(reflect.TypeFor[OfferAnswer]()); !slices.Equal(got, []string{"decision"}) {
		t.Errorf("OfferAnswer requires %v", got)
	}
	if got := apiRequired(reflect.TypeFor[FeedbackAnswer]()); !slices.Equal(got, []string{"feedback_type"}) {
		t.Errorf("FeedbackAnswer requires %v", got)
	}
}
