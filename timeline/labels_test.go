package timeline

import (
	"testing"

	"github.com/towow/towow/domain/event"
)

// TestEventLabels: every registered event type has a label for people and
// a context, and no label names a type the catalog does not register (the
// console's event list is the catalog: it must not lose or invent a type).
func TestEventLabels(t *testing.T) {
	contexts := map[EventContext]bool{ContextNegotiation: true, ContextAgent: true, ContextWorkflow: true, ContextSystem: true}
	for _, s := range event.Catalog() {
		l, ok := LabelOf(s.Type)
		if !ok || l.Label == "" || !contexts[l.Context] {
			t.Errorf("%s: label %+v, %v", s.Type, l, ok)
		}
	}
	for typ := range eventLabels {
		if _, ok := event.Spec(typ); !ok {
			t.Errorf("a label for the unregistered type %s", typ)
		}
	}
	if _, ok := LabelOf("towow.nothing.here"); ok {
		t.Error("an unregistered type has a label")
	}
}
