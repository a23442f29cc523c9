package workflow

// DecisionOutcome is what a decision on a workflow came to when the
// validators let it through: the validation (the decision as it took
// effect, its corrections, the new version) and the position written.
// Repeated says the decision id was ruled on before (nothing written now).
type DecisionOutcome struct {
	Validated DecisionValidated
	Position  int64
	Repeated  bool
}
