package execute

import (
	"testing"

	"github.com/towow/towow/domain/workflow"
)

// TestNodeEffects: every node type that starts running (rather than
// completing as it starts) is settled by its effect or answered over the
// API, and every effect belongs to such a type.
func TestNodeEffects(t *testing.T) {
	for _, s := range workflow.NodeSpecs() {
		_, effect := nodeEffects[s.Type]
		switch {
		case s.Start == workflow.StartCompleted && effect:
			t.Errorf("%s completes as it starts, yet has an effect", s.Type)
		case s.Start != workflow.StartCompleted && !effect && s.Answer == workflow.AnswerNobody:
			t.Errorf("%s starts running, but no effect settles it and nobody answers it", s.Type)
		}
	}
	for typ := range nodeEffects {
		if _, ok := workflow.SpecOf(typ); !ok {
			t.Errorf("effect for %q, which is no node type", typ)
		}
	}
}
