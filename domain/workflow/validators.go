package workflow

import (
	"fmt"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/towow/towow/domain/event"
)

// Validator is one rule of the workflow's validator chain: every decision
// is validated before it takes effect. Check looks at
// the decision against the workflow as it is; it refuses with field
// errors, or lets it through, possibly correcting it (it may change d and
// must say so in a Correction).
type Validator struct {
	Rule  string
	Check func(w *Workflow, d *Decision, c DecisionContext) ([]FieldError, []Correction)
}

// Validators is the validator chain, in order: the first rule that
// refuses ends the check. Add a rule by appending a Validator (its Rule
// name shows in the rejection and in /metrics).
var Validators = []Validator{
	{"well_formed", checkWellFormed},
	{"workflow_state", checkWorkflowState},
	{"version", checkVersion},
	{"rate_limit", checkRateLimit},
	{"references", checkReferences},
	{"node_fields", checkNodeFields},
	{"assignee", checkAssignee},
	{"http_allow_list", checkAllowList},
	{"frozen_nodes", checkFrozen},
	{"acyclic", checkAcyclic},
	{"data_flow", checkDataFlow},
	{"size", checkSize},
	{"executable", checkExecutable},
}

// ValidatorRules lists the validators' rule names, in order.
func ValidatorRules() []string {
	out := make([]string, len(Validators))
	for i, v := range Validators {
		out[i] = v.Rule
	}
	return out
}

// Decide runs decision d through the validators. Let
// through: a towow.decision.validated (with any corrections and the new
// version) followed by the events the decision causes. Refused: one
// towow.decision.rejected naming the rule and the field errors, and
// nothing else (RejectionOf finds it). A decision id already ruled on
// gives no events (a retry). The error is for a missing workflow only.
func (w *Workflow) Decide(d Decision, c DecisionContext) ([]event.Payload, error) {
	if !w.Exists() {
		return nil, event.Errorf(ErrWorkflowNotFound, "no workflow")
	}
	if d.DecisionID != "" && slices.ContainsFunc(w.Decisions, func(r DecisionRecord) bool { return r.DecisionID == d.DecisionID }) {
		return nil, nil
	}
	d = d.clone() // validators may correct it: never the caller's copy
	var corrections []Correction
	for _, v := range Validators {
		errs, corr := v.Check(w, &d, c)
		if len(errs) > 0 {
			return []event.Payload{&DecisionRejected{WorkflowID: w.ID, Decision: d, Rule: v.Rule, Reason: errs[0].Message,
				Errors: errs, Version: w.Version, DecidedAt: c.Now}}, nil
		}
		corrections = append(corrections, corr...)
	}
	version := w.Version + 1
	if d.Type == DecisionMoveNode {
		version = w.Version // layout: last write wins, no conflict
	}
	ch := WorkflowChange{WorkflowID: w.ID, DecisionID: d.DecisionID, ClientID: d.ClientID, Version: version}
	out := []event.Payload{&DecisionValidated{WorkflowID: w.ID, Decision: d, Corrections: corrections, Version: version, DecidedAt: c.Now}}
	p := d.Payload
	switch d.Type {
	case DecisionCreateNode:
		n := *p.Node
		if n.Position == (Position{}) {
			n.Position = w.placeNew(p.After, p.Before)
		}
		out = append(out, &WorkflowNodeAdded{WorkflowChange: ch, Node: n})
		for _, a := range p.After {
			out = append(out, &WorkflowEdgeAdded{WorkflowChange: ch, Edge: WorkflowEdge{From: a, To: n.ID}})
		}
		for _, b := range p.Before {
			out = append(out, &WorkflowEdgeAdded{WorkflowChange: ch, Edge: WorkflowEdge{From: n.ID, To: b}})
		}
	case DecisionUpdateNode:
		out = append(out, &WorkflowNodeUpdated{WorkflowChange: ch, Node: p.Changes.apply(*w.Node(p.NodeID))})
	case DecisionDeleteNode:
		var edges []WorkflowEdge
		for _, e := range w.Edges {
			if e.From == p.NodeID || e.To == p.NodeID {
				edges = append(edges, e)
			}
		}
		out = append(out, &WorkflowNodeDeleted{WorkflowChange: ch, NodeID: p.NodeID, Edges: edges})
	case DecisionConnect:
		out = append(out, &WorkflowEdgeAdded{WorkflowChange: ch, Edge: WorkflowEdge{From: p.From, To: p.To}})
	case DecisionDisconnect:
		out = append(out, &WorkflowEdgeDeleted{WorkflowChange: ch, Edge: WorkflowEdge{From: p.From, To: p.To}})
	case DecisionMoveNode:
		out = append(out, &WorkflowNodeMoved{WorkflowChange: ch, NodeID: p.NodeID, Position: *p.Position})
	case DecisionExecuteWorkflow:
		order, _ := TopoOrder(w.Nodes, w.Edges)
		out = append(out, &WorkflowStarted{WorkflowID: w.ID, DecisionID: d.DecisionID, NodeCount: len(w.Nodes), Order: order})
	case DecisionCancelWorkflow:
		out = append(out, w.cancel(d.DecisionID, p.Reason)...)
	}
	return out, nil
}

// placeNew is where a new node goes: one column right of the nodes it
// follows, level with the first; without any, one column left of the
// first node it goes before; without either, below every node. A spot a
// node already holds moves down a row at a time until it is free, so a
// new node is never drawn over another.
func (w *Workflow) placeNew(after, before []string) Position {
	var pos Position
	placed := false
	for i, id := range after {
		if n := w.Node(id); n != nil {
			pos.X = max(pos.X, n.Position.X+columnWidth)
			if i == 0 {
				pos.Y = n.Position.Y
			}
			placed = true
		}
	}
	for _, id := range before {
		if n := w.Node(id); n != nil && !placed {
			pos, placed = Position{X: max(n.Position.X-columnWidth, 0), Y: n.Position.Y}, true
		}
	}
	if !placed {
		for _, n := range w.Nodes {
			pos.Y = max(pos.Y, n.Position.Y+rowHeight)
		}
		pos.X = 40
	}
	return w.freeSpot(pos)
}

// The canvas's grid: a node is at most nodeWidth × nodeHeight, columns
// columnWidth apart, rows rowHeight apart.
const (
	columnWidth = 260
	rowHeight   = 120
	nodeWidth   = 220
	nodeHeight  = 100
)

// freeSpot is pos, or the first spot below it, a row at a time, that no
// node overlaps.
func (w *Workflow) freeSpot(pos Position) Position {
	for range len(w.Nodes) + 1 {
		taken := false
		for _, n := range w.Nodes {
			if math.Abs(n.Position.X-pos.X) < nodeWidth && math.Abs(n.Position.Y-pos.Y) < nodeHeight {
				pos.Y, taken = n.Position.Y+rowHeight, true
				break
			}
		}
		if !taken {
			break
		}
	}
	return pos
}

// RejectionOf returns the rejection among a decision's events, or nil
// when it was let through.
func RejectionOf(events []event.Payload) *DecisionRejected {
	for _, e := range events {
		if r, ok := e.(*DecisionRejected); ok {
			return r
		}
	}
	return nil
}

func refuse(field, format string, args ...any) []FieldError {
	return []FieldError{{Field: field, Message: fmt.Sprintf(format, args...)}}
}

func checkWellFormed(w *Workflow, d *Decision, _ DecisionContext) ([]FieldError, []Correction) {
	switch {
	case strings.TrimSpace(d.DecisionID) == "":
		return refuse("decision_id", "a decision needs an id"), nil
	case !slices.Contains(DecisionTypes, d.Type):
		return refuse("decision_type", "unknown decision type %q (one of %s)", d.Type, event.JoinNames(DecisionTypes)), nil
	case strings.TrimSpace(d.Actor) == "":
		return refuse("actor", "a decision needs an actor"), nil
	case math.IsNaN(d.Confidence) || d.Confidence < 0 || d.Confidence > 1:
		return refuse("confidence", "confidence must be between 0 and 1"), nil
	}
	p := d.Payload
	fields := DecisionPayloads[d.Type]
	if i := slices.IndexFunc(fields.Required, func(f string) bool { return !p.has(f) }); i >= 0 {
		return refuse("payload."+fields.Required[i], "%s needs %s", d.Type, strings.Join(fields.Required, " and ")), nil
	}
	switch d.Type {
	case DecisionCreateNode:
		if p.Node.ID == "" { // derived from the decision, so a retry names the same node
			p.Node.ID = "node-" + shortID(d.DecisionID)
		}
	case DecisionMoveNode:
		if !finite(p.Position.X) || !finite(p.Position.Y) {
			return refuse("payload.position", "a position is two finite numbers"), nil
		}
	}
	return nil, nil
}

func checkWorkflowState(w *Workflow, d *Decision, _ DecisionContext) ([]FieldError, []Correction) {
	switch {
	case w.Status.Finished():
		return refuse("decision_type", "the workflow has ended (%s): it takes no more decisions", w.Status), nil
	case d.Type == DecisionExecuteWorkflow && w.Status != WorkflowStatusDraft:
		return refuse("decision_type", "only a draft can be executed; the workflow is %s", w.Status), nil
	}
	return nil, nil
}

func checkVersion(w *Workflow, d *Decision, _ DecisionContext) ([]FieldError, []Correction) {
	if d.Type == DecisionMoveNode || d.Type == DecisionCancelWorkflow || d.BaseVersion == w.Version {
		return nil, nil
	}
	return refuse("base_version", "the decision was made on version %d, the workflow is at version %d: reload and decide again",
		d.BaseVersion, w.Version), nil
}

func checkRateLimit(w *Workflow, d *Decision, c DecisionContext) ([]FieldError, []Correction) {
	if c.RateLimit <= 0 {
		return nil, nil
	}
	n := 0
	for _, r := range w.Decisions {
		if r.Actor == d.Actor && c.Now.Sub(r.At) < c.RateWindow {
			n++
		}
	}
	if n >= c.RateLimit {
		return refuse("actor", "%s made %d decisions in the last %s (limit %d)", d.Actor, n, c.RateWindow, c.RateLimit), nil
	}
	return nil, nil
}

func checkReferences(w *Workflow, d *Decision, _ DecisionContext) ([]FieldError, []Correction) {
	p := d.Payload
	exists := func(field, id string) []FieldError {
		if w.Node(id) == nil {
			return refuse("payload."+field, "no node %q in the workflow", id)
		}
		return nil
	}
	switch d.Type {
	case DecisionCreateNode:
		if w.Node(p.Node.ID) != nil {
			return refuse("payload.node.id", "a node %q exists already", p.Node.ID), nil
		}
		for _, id := range append(slices.Clone(p.After), p.Before...) {
			if errs := exists("after", id); errs != nil {
				return errs, nil
			}
		}
	case DecisionUpdateNode, DecisionDeleteNode, DecisionMoveNode:
		return exists("node_id", p.NodeID), nil
	case DecisionConnect, DecisionDisconnect:
		if errs := exists("from", p.From); errs != nil {
			return errs, nil
		}
		if errs := exists("to", p.To); errs != nil {
			return errs, nil
		}
		switch {
		case p.From == p.To:
			return refuse("payload.to", "a node cannot depend on itself"), nil
		case d.Type == DecisionConnect && w.HasEdge(p.From, p.To):
			return refuse("payload.to", "%s already runs after %s", p.To, p.From), nil
		case d.Type == DecisionDisconnect && !w.HasEdge(p.From, p.To):
			return refuse("payload.to", "there is no edge from %s to %s", p.From, p.To), nil
		}
	}
	return nil, nil
}

// decidedNode is the node a create_node or update_node leaves, nil for
// other decisions.
func decidedNode(w *Workflow, d *Decision) *WorkflowNode {
	switch d.Type {
	case DecisionCreateNode:
		return d.Payload.Node
	case DecisionUpdateNode:
		n := d.Payload.Changes.apply(*w.Node(d.Payload.NodeID))
		return &n
	}
	return nil
}

func checkNodeFields(w *Workflow, d *Decision, c DecisionContext) ([]FieldError, []Correction) {
	n := decidedNode(w, d)
	if n == nil {
		return nil, nil
	}
	field := "payload.node."
	if d.Type == DecisionUpdateNode {
		field = "payload.changes."
	}
	if d.Type == DecisionUpdateNode && d.Payload.Changes != nil && *d.Payload.Changes == (NodeChanges{}) {
		return refuse("payload.changes", "update_node changes nothing"), nil
	}
	errs := validNode(*n, field)
	if len(errs) > 0 {
		return errs, nil
	}
	var corr []Correction
	clamp := func(name string, v *int, lo, hi int) {
		if *v != 0 && (*v < lo || *v > hi) {
			was := *v
			*v = min(max(*v, lo), hi)
			corr = append(corr, Correction{Rule: "node_fields", Field: field + name, From: strconv.Itoa(was), To: strconv.Itoa(*v),
				Message: fmt.Sprintf("%s must be between %d and %d", name, lo, hi)})
		}
	}
	target := d.Payload.Node
	if d.Type == DecisionUpdateNode {
		ch := d.Payload.Changes
		if ch.TimeoutSeconds != nil {
			clamp("timeout_seconds", ch.TimeoutSeconds, MinNodeTimeoutSeconds, MaxNodeTimeoutSeconds)
		}
		if ch.MaxAttempts != nil {
			clamp("max_attempts", ch.MaxAttempts, 1, MaxHTTPAttempts)
		}
		if ch.WaitUntil != nil && ch.WaitUntil.Before(c.Now) {
			corr = append(corr, waitCorrection(field, *ch.WaitUntil, c.Now))
			*ch.WaitUntil = c.Now
		}
		return nil, corr
	}
	clamp("timeout_seconds", &target.TimeoutSeconds, MinNodeTimeoutSeconds, MaxNodeTimeoutSeconds)
	clamp("max_attempts", &target.MaxAttempts, 1, MaxHTTPAttempts)
	if target.Type.Spec().Start == StartTimer && target.WaitUntil.Before(c.Now) {
		corr = append(corr, waitCorrection(field, target.WaitUntil, c.Now))
		target.WaitUntil = c.Now
	}
	return nil, corr
}

func waitCorrection(field string, was, now time.Time) Correction {
	return Correction{Rule: "node_fields", Field: field + "wait_until", From: was.Format(time.RFC3339), To: now.Format(time.RFC3339),
		Message: "a wait cannot end in the past: it ends now"}
}

// validNode checks a node's type, title, description and position, then
// the typed fields its type's spec needs or forbids (typedFields).
func validNode(n WorkflowNode, field string) []FieldError {
	switch {
	case !slices.Contains(NodeTypes, n.Type):
		return refuse(field+"type", "unknown node type %q (one of %s)", n.Type, event.JoinNames(NodeTypes))
	case strings.TrimSpace(n.Title) == "":
		return refuse(field+"title", "a node needs a title")
	case utf8.RuneCountInString(n.Title) > 200 || utf8.RuneCountInString(n.Description) > 2000:
		return refuse(field+"title", "a title holds at most 200 characters, a description 2000")
	case !finite(n.Position.X) || !finite(n.Position.Y):
		return refuse(field+"position", "a position is two finite numbers")
	}
	if name, msg := typedFieldError(n, n.Type.Spec()); msg != "" {
		return refuse(field+name, "%s", msg)
	}
	return templateSyntax(n, field)
}

func checkAssignee(w *Workflow, d *Decision, _ DecisionContext) ([]FieldError, []Correction) {
	n := decidedNode(w, d)
	if n == nil || !n.Type.Spec().Uses("assignee_id") || slices.Contains(w.Participants, n.AssigneeID) {
		return nil, nil
	}
	return refuse("payload.node.assignee_id", "%s is not a participant of the agreement (%s)", n.AssigneeID,
		strings.Join(w.Participants, ", ")), nil
}

// HostAllowed reports whether rawURL's host is on the allow list.
func HostAllowed(rawURL string, allowed []string) bool {
	u, err := url.Parse(rawURL)
	if err != nil {
		return false
	}
	for _, a := range allowed {
		a = strings.ToLower(strings.TrimSpace(a))
		host, hostPort := strings.ToLower(u.Hostname()), strings.ToLower(u.Host)
		switch {
		case a == "":
		case strings.HasPrefix(a, "*."):
			if strings.HasSuffix(host, a[1:]) {
				return true
			}
		case a == host || a == hostPort:
			return true
		}
	}
	return false
}

func checkAllowList(w *Workflow, d *Decision, c DecisionContext) ([]FieldError, []Correction) {
	n := decidedNode(w, d)
	if n == nil || !n.Type.Spec().Uses("url") || HostAllowed(n.URL, c.AllowedHosts) {
		return nil, nil
	}
	return refuse("payload.node.url", "the host of %s is not on the allow list (TOWOW_HTTP_ALLOW)", n.URL), nil
}

func checkFrozen(w *Workflow, d *Decision, _ DecisionContext) ([]FieldError, []Correction) {
	if !d.Type.structural() {
		return nil, nil
	}
	frozen := func(field, id string) []FieldError {
		if s := w.Run(id).Status; s != NodeStatusPending {
			return refuse("payload."+field, "node %s is %s: a structural edit cannot touch it", id, s)
		}
		return nil
	}
	p := d.Payload
	switch d.Type {
	case DecisionUpdateNode, DecisionDeleteNode:
		return frozen("node_id", p.NodeID), nil
	case DecisionConnect, DecisionDisconnect:
		return frozen("to", p.To), nil // what runs after must not have started
	case DecisionCreateNode:
		for _, b := range p.Before {
			if errs := frozen("before", b); errs != nil {
				return errs, nil
			}
		}
	}
	return nil, nil
}

func checkAcyclic(w *Workflow, d *Decision, _ DecisionContext) ([]FieldError, []Correction) {
	var nodes []WorkflowNode
	var edges []WorkflowEdge
	p := d.Payload
	switch d.Type {
	case DecisionConnect:
		nodes, edges = w.Nodes, append(slices.Clone(w.Edges), WorkflowEdge{From: p.From, To: p.To})
	case DecisionCreateNode:
		nodes, edges = append(slices.Clone(w.Nodes), *p.Node), slices.Clone(w.Edges)
		for _, a := range p.After {
			edges = append(edges, WorkflowEdge{From: a, To: p.Node.ID})
		}
		for _, b := range p.Before {
			edges = append(edges, WorkflowEdge{From: p.Node.ID, To: b})
		}
	default:
		return nil, nil
	}
	if _, ok := TopoOrder(nodes, edges); !ok {
		return refuse("payload", "the change would make a cycle: a step would wait for itself"), nil
	}
	return nil, nil
}

// checkDataFlow checks the references of the node a create_node or
// update_node leaves (an update: in the fields it sets) against the
// workflow: each names a variable, or a node upstream of it that has
// the field read (references.go); the edges a canvas batch adds after the
// change count. A delete_node or disconnect is refused when it would
// leave a node not yet started reading a node that is gone or no longer
// upstream of it.
func checkDataFlow(w *Workflow, d *Decision, c DecisionContext) ([]FieldError, []Correction) {
	p := d.Payload
	g := w // the graph the references are checked on
	if len(c.laterEdges) > 0 && (d.Type == DecisionCreateNode || d.Type == DecisionUpdateNode) {
		g = w.clone()
		g.Edges = append(g.Edges, c.laterEdges...)
	}
	switch d.Type {
	case DecisionCreateNode:
		return g.flowErrors(*p.Node, g.upstream(append(slices.Clone(p.After), g.Before(p.Node.ID)...)), "payload.node.", nil), nil
	case DecisionUpdateNode:
		only := map[TemplateField]bool{TemplateURL: p.Changes.URL != nil, TemplateBody: p.Changes.Body != nil,
			TemplateDescription: p.Changes.Description != nil}
		return g.flowErrors(*decidedNode(w, d), g.upstream(g.Before(p.NodeID)), "payload.changes.", only), nil
	case DecisionDeleteNode, DecisionDisconnect:
		next, field := w.clone(), "payload.to"
		if d.Type == DecisionDeleteNode {
			next.Apply(&WorkflowNodeDeleted{NodeID: p.NodeID})
			field = "payload.node_id"
		} else {
			next.Apply(&WorkflowEdgeDeleted{Edge: WorkflowEdge{From: p.From, To: p.To}})
		}
		for _, n := range next.Nodes {
			if next.Run(n.ID).Status != NodeStatusPending {
				continue
			}
			if errs := next.flowErrors(n, next.upstream(next.Before(n.ID)), "", nil); len(errs) > 0 {
				return refuse(field, "node %s would lose what its %s reads: %s", n.ID, errs[0].Field, errs[0].Message), nil
			}
		}
	}
	return nil, nil
}

func checkSize(w *Workflow, d *Decision, c DecisionContext) ([]FieldError, []Correction) {
	limit := c.MaxNodes
	if limit <= 0 {
		limit = DefaultMaxWorkflowNodes
	}
	if d.Type == DecisionCreateNode && len(w.Nodes) >= limit {
		return refuse("payload.node", "the workflow has %d nodes, the most it may have", limit), nil
	}
	return nil, nil
}

func checkExecutable(w *Workflow, d *Decision, c DecisionContext) ([]FieldError, []Correction) {
	if d.Type != DecisionExecuteWorkflow {
		return nil, nil
	}
	if len(w.Nodes) == 0 {
		return refuse("workflow", "the workflow has no node to run"), nil
	}
	if _, ok := TopoOrder(w.Nodes, w.Edges); !ok {
		return refuse("workflow.edges", "the workflow has a cycle"), nil
	}
	for _, n := range w.Nodes {
		if errs := validNode(n, "workflow.nodes["+n.ID+"]."); errs != nil {
			return errs, nil
		}
		if n.Type.Spec().Uses("assignee_id") && !slices.Contains(w.Participants, n.AssigneeID) {
			return refuse("workflow.nodes["+n.ID+"].assignee_id", "%s is not a participant of the agreement", n.AssigneeID), nil
		}
		if n.Type.Spec().Uses("url") && !HostAllowed(n.URL, c.AllowedHosts) {
			return refuse("workflow.nodes["+n.ID+"].url", "the host of %s is not on the allow list", n.URL), nil
		}
		if errs := w.flowErrors(n, w.upstream(w.Before(n.ID)), "workflow.nodes["+n.ID+"].", nil); len(errs) > 0 {
			return errs, nil
		}
	}
	return nil, nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// shortID is the first 12 letters and digits of id.
func shortID(id string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(id) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			if b.Len() == 12 {
				break
			}
		}
	}
	return b.String()
}
