package workflow

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Data flow between nodes. A node's template fields (its type's
// NodeSpec.Templates: an http node's URL and body values, a task's
// description) may reference the results of the nodes upstream of it and
// the workflow's variables:
//
//	{{nodes.<node_id>.output.<key>}}  an output field of a completed node
//	{{nodes.<node_id>.summary}}       a completed node's result summary
//	{{vars.<name>}}                   a workflow variable (Workflow.Vars)
//
// A reference is looked up, never evaluated: there are no expressions,
// functions, filters or loops, and the text around references is copied
// as it is. Spaces inside the braces are allowed ("{{ vars.title }}"); a
// "{{" that does not open a valid reference is an error naming it; a lone
// "}}" is plain text.
//
// The Coordinator checks references when a decision sets a template field
// (node_fields: the syntax; data_flow: the node exists, runs before the
// node that reads it, has output fields, the variable exists), and again
// when a deletion or a disconnection would cut a pending node off from a
// node it reads. An attempt renders its node when it starts
// (Workflow.RenderNode): a reference without a value (an output field the
// node's answer did not have) fails the node then, naming the field and
// the reference; it is never rendered as empty text.

// Output and rendering bounds.
const (
	// MaxOutputFields bounds the fields taken from an answer's JSON.
	MaxOutputFields = 32
	// MaxOutputKey bounds an output field's name, in bytes (a nested
	// field's name is its path: "venue.address").
	MaxOutputKey = 128
	// MaxOutputValue bounds an output field's value, in bytes: a longer
	// value is left out (never cut: a cut value would flow on silently).
	MaxOutputValue = 1024
	// MaxOutputDepth is how deep nested JSON objects are flattened.
	MaxOutputDepth = 4
	// MaxHTTPBodyKept is how much of an answer's body an http node keeps
	// as its "body" output field, in bytes.
	MaxHTTPBodyKept = 2048
	// MaxRenderedField bounds one rendered field, in bytes.
	MaxRenderedField = 16 << 10
	// maxRefSegment bounds a node id or a name in a reference, in runes
	// (a node id's own bound).
	maxRefSegment = 80
)

// Reference is one {{…}} of a template field: a node's output field
// (Node and Output), a node's summary (Node alone) or a variable (Var).
type Reference struct {
	Node   string
	Output string
	Var    string
}

// String is the reference as written, without spaces.
func (r Reference) String() string {
	switch {
	case r.Var != "":
		return "{{vars." + r.Var + "}}"
	case r.Output != "":
		return "{{nodes." + r.Node + ".output." + r.Output + "}}"
	}
	return "{{nodes." + r.Node + ".summary}}"
}

// TemplateError is a "{{" that opens no valid reference: Text is what was
// written (cut to a readable length), Reason why it is no reference.
type TemplateError struct {
	Text   string
	Reason string
}

func (e *TemplateError) Error() string { return e.Text + " is not a reference: " + e.Reason }

// ParseTemplate returns the references of s in order, or the first
// TemplateError.
func ParseTemplate(s string) ([]Reference, error) {
	var refs []Reference
	err := scanTemplate(s, func(string) {}, func(r Reference, _ string) error {
		refs = append(refs, r)
		return nil
	})
	return refs, err
}

// scanTemplate walks s: each stretch of plain text to text, each reference
// (with its text as written) to ref; it stops at the first error, a
// *TemplateError or ref's.
func scanTemplate(s string, text func(string), ref func(r Reference, raw string) error) error {
	for {
		i := strings.Index(s, "{{")
		if i < 0 {
			text(s)
			return nil
		}
		text(s[:i])
		rest := s[i+2:]
		j := strings.Index(rest, "}}")
		if j < 0 {
			return &TemplateError{Text: clipText(s[i:], 60), Reason: "no closing }}"}
		}
		raw := s[i : i+2+j+2]
		r, reason := parseReference(rest[:j])
		if reason != "" {
			return &TemplateError{Text: clipText(raw, 120), Reason: reason}
		}
		if err := ref(r, raw); err != nil {
			return err
		}
		s = rest[j+2:]
	}
}

// parseReference reads what stands between the braces: the reference, or
// why it is none.
func parseReference(body string) (Reference, string) {
	const want = "want nodes.<node_id>.output.<key>, nodes.<node_id>.summary or vars.<name>"
	body = strings.TrimSpace(body)
	if body == "" {
		return Reference{}, "empty: " + want
	}
	segs := strings.Split(body, ".")
	for _, s := range segs {
		if s == "" {
			return Reference{}, "an empty name between dots: " + want
		}
		if msg := refSegment(s); msg != "" {
			return Reference{}, msg
		}
	}
	switch segs[0] {
	case "nodes":
		switch {
		case len(segs) == 3 && segs[2] == "summary":
			return Reference{Node: segs[1]}, ""
		case len(segs) >= 4 && segs[2] == "output":
			key := strings.Join(segs[3:], ".")
			if len(key) > MaxOutputKey {
				return Reference{}, fmt.Sprintf("an output key holds at most %d bytes", MaxOutputKey)
			}
			return Reference{Node: segs[1], Output: key}, ""
		}
		return Reference{}, want
	case "vars":
		if len(segs) == 2 {
			return Reference{Var: segs[1]}, ""
		}
		return Reference{}, want
	}
	return Reference{}, fmt.Sprintf("unknown root %q: a reference starts with nodes. or vars.", segs[0])
}

// refSegment refuses a name that cannot stand in a reference: a name is
// letters, digits, "_" and "-", at most maxRefSegment of them.
func refSegment(s string) string {
	if utf8.RuneCountInString(s) > maxRefSegment {
		return fmt.Sprintf("a name holds at most %d characters", maxRefSegment)
	}
	if i := strings.IndexFunc(s, func(r rune) bool { return !refRune(r) }); i >= 0 {
		r, _ := utf8.DecodeRuneInString(s[i:])
		return fmt.Sprintf("%q may not stand in a name (letters, digits, _ and - only)", r)
	}
	return ""
}

func refRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-' }

// templateSkeleton is s with every {{…}} (an unclosed one to the end)
// replaced by placeholder: the shape of the text whatever the values.
func templateSkeleton(s, placeholder string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "{{")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		b.WriteString(placeholder)
		j := strings.Index(s[i+2:], "}}")
		if j < 0 {
			return b.String()
		}
		s = s[i+2+j+2:]
	}
}

// templates applies f to each template field of n (its type's
// Templates: "url", "body.<key>" in key order, "description") and returns
// n with f's results; the first error stops it.
func (n WorkflowNode) templates(f func(field, text string) (string, error)) (WorkflowNode, error) {
	out := n
	for _, t := range n.Type.Spec().Templates {
		var err error
		switch t {
		case TemplateURL:
			out.URL, err = f(string(TemplateURL), n.URL)
		case TemplateBody:
			if n.Body == nil {
				continue
			}
			out.Body = make(map[string]string, len(n.Body))
			for _, k := range slices.Sorted(maps.Keys(n.Body)) {
				if out.Body[k], err = f(string(TemplateBody)+"."+k, n.Body[k]); err != nil {
					break
				}
			}
		case TemplateDescription:
			out.Description, err = f(string(TemplateDescription), n.Description)
		}
		if err != nil {
			return n, err
		}
	}
	return out, nil
}

// templateSyntax refuses the first template field of n that holds a "{{"
// opening no valid reference (field prefixes the field's name).
func templateSyntax(n WorkflowNode, field string) []FieldError {
	var errs []FieldError
	_, _ = n.templates(func(name, text string) (string, error) {
		if _, err := ParseTemplate(text); err != nil {
			errs = refuse(field+name, "%s", err.Error())
			return "", err
		}
		return text, nil
	})
	return errs
}

// Vars are the workflow's variables, read as {{vars.<name>}}: its facts,
// fixed when it is created (workflow_id, demand_id, channel_id, title).
func (w *Workflow) Vars() map[string]string {
	return map[string]string{"workflow_id": w.ID, "demand_id": w.DemandID, "channel_id": w.ChannelID, "title": w.Title}
}

// upstream returns the nodes from which a node after from is reached:
// from and everything before them, directly or not.
func (w *Workflow) upstream(from []string) map[string]bool {
	seen := map[string]bool{}
	stack := slices.Clone(from)
	for len(stack) > 0 {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !seen[id] {
			seen[id] = true
			stack = append(stack, w.Before(id)...)
		}
	}
	return seen
}

// refProblem says why node self, run after the nodes of up, cannot read
// r ("" when it can): the variable or node must exist, the node must run
// before self, an output field needs a type with output fields, and a
// node that already completed must have that field.
func (w *Workflow) refProblem(self string, r Reference, up map[string]bool) string {
	if r.Var != "" {
		vars := w.Vars()
		if _, ok := vars[r.Var]; !ok {
			return fmt.Sprintf("no variable %q (the variables are %s)", r.Var, strings.Join(slices.Sorted(maps.Keys(vars)), ", "))
		}
		return ""
	}
	target := w.Node(r.Node)
	switch {
	case r.Node == self:
		return "a node cannot read its own result"
	case target == nil:
		return fmt.Sprintf("no node %q in the workflow", r.Node)
	case !up[r.Node]:
		return fmt.Sprintf("node %s does not run before %s: a node reads only the nodes upstream of it (connect %s before it)",
			r.Node, self, r.Node)
	case r.Output != "" && !target.Type.Spec().Outputs:
		return fmt.Sprintf("%s is a %s node, which has no output fields (only its summary: {{nodes.%s.summary}})",
			r.Node, target.Type, r.Node)
	}
	if run := w.Run(r.Node); r.Output != "" && run.Status == NodeStatusCompleted && run.Result != nil {
		if _, ok := run.Result.Output[r.Output]; !ok {
			return fmt.Sprintf("node %s completed without output field %q (it has %s)", r.Node, r.Output, outputKeys(run.Result.Output))
		}
	}
	return ""
}

// flowErrors checks the references in n's template fields, n running
// after the nodes of up: one error per field at fault, named field +
// the field's name. only, when not nil, limits the check to those
// fields' roots ("url", "body", "description").
func (w *Workflow) flowErrors(n WorkflowNode, up map[string]bool, field string, only map[TemplateField]bool) []FieldError {
	var errs []FieldError
	_, _ = n.templates(func(name, text string) (string, error) {
		root, _, _ := strings.Cut(name, ".")
		if only != nil && !only[TemplateField(root)] {
			return text, nil
		}
		err := scanTemplate(text, func(string) {}, func(r Reference, _ string) error {
			if msg := w.refProblem(n.ID, r, up); msg != "" {
				return fmt.Errorf("%s: %s", r, msg)
			}
			return nil
		})
		if err != nil {
			errs = append(errs, FieldError{Field: field + name, Message: err.Error()})
		}
		return text, nil
	})
	return errs
}

// RenderError is why a node cannot run with its references: the field
// ("body.payload"), the reference as written and why it has no value.
type RenderError struct {
	Field     string
	Reference string
	Reason    string
}

func (e *RenderError) Error() string { return e.Field + ": " + e.Reference + ": " + e.Reason }

// RenderNode returns node id as an attempt of it runs: each reference in
// its template fields replaced by its value (in the URL, percent-encoded
// as one component, so a value cannot change the URL's shape), from the
// results of the nodes that completed and the workflow's variables.
// Rendering is deterministic: a completed node's result never changes.
// The error is a *RenderError: the reference has no value (a missing
// output field, a node not completed, an unknown node or variable, a
// malformed reference), or the field renders too long.
func (w *Workflow) RenderNode(id string) (WorkflowNode, error) {
	n := w.Node(id)
	if n == nil {
		return WorkflowNode{}, fmt.Errorf("no node %q in workflow %s", id, w.ID)
	}
	return n.templates(func(field, text string) (string, error) {
		var b strings.Builder
		err := scanTemplate(text, func(s string) { b.WriteString(s) }, func(r Reference, raw string) error {
			v, reason := w.value(r)
			if reason != "" {
				return &RenderError{Field: field, Reference: raw, Reason: reason}
			}
			if field == string(TemplateURL) {
				v = escapeComponent(v)
			}
			b.WriteString(v)
			if b.Len() > MaxRenderedField {
				return &RenderError{Field: field, Reference: raw, Reason: fmt.Sprintf("the field renders to more than %d bytes", MaxRenderedField)}
			}
			return nil
		})
		if te, ok := err.(*TemplateError); ok {
			return "", &RenderError{Field: field, Reference: te.Text, Reason: "not a reference: " + te.Reason}
		}
		return b.String(), err
	})
}

// value is r's value, or why it has none.
func (w *Workflow) value(r Reference) (string, string) {
	if r.Var != "" {
		v, ok := w.Vars()[r.Var]
		if !ok {
			return "", fmt.Sprintf("no variable %q", r.Var)
		}
		return v, ""
	}
	if w.Node(r.Node) == nil {
		return "", fmt.Sprintf("no node %q in the workflow", r.Node)
	}
	run := w.Run(r.Node)
	if run.Status != NodeStatusCompleted || run.Result == nil {
		return "", fmt.Sprintf("node %s is %s, not completed", r.Node, run.Status)
	}
	if r.Output == "" {
		return run.Result.Summary, ""
	}
	v, ok := run.Result.Output[r.Output]
	if !ok {
		return "", fmt.Sprintf("node %s's output has no field %q (it has %s)", r.Node, r.Output, outputKeys(run.Result.Output))
	}
	return v, ""
}

// outputKeys lists an output's field names for a message (the first
// twelve, sorted).
func outputKeys(out map[string]string) string {
	keys := slices.Sorted(maps.Keys(out))
	if len(keys) == 0 {
		return "none"
	}
	if len(keys) > 12 {
		return strings.Join(keys[:12], ", ") + fmt.Sprintf(", … %d in all", len(keys))
	}
	return strings.Join(keys, ", ")
}

// escapeComponent percent-encodes every byte of s but the unreserved
// characters of RFC 3986 (letters, digits, "-", ".", "_", "~").
func escapeComponent(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

// HTTPOutput is an http node's output from a 2xx answer: "status" (its
// code), "body" (its first MaxHTTPBodyKept bytes, cut at a character)
// and, when the answer is a JSON object, its fields (JSONOutput); a
// field named "status" or "body" stays readable in the body only.
func HTTPOutput(status int, answer []byte) map[string]string {
	out := JSONOutput(answer)
	if out == nil {
		out = map[string]string{}
	}
	out["status"] = strconv.Itoa(status)
	out["body"] = clipBytes(answer, MaxHTTPBodyKept)
	return out
}

// JSONOutput flattens a JSON object into output fields: its strings,
// numbers (as written) and booleans, each under its name, a nested
// object's under "<name>.<field>" (at most MaxOutputDepth deep). Left out:
// arrays and nulls, a name that cannot stand in a reference (letters,
// digits, "_" and "-"), a name longer than MaxOutputKey, a value longer
// than MaxOutputValue, the top-level "status" and "body" (HTTPOutput's
// own), and every field after the first MaxOutputFields (in name order).
// Nil when data is not a JSON object.
func JSONOutput(data []byte) map[string]string {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil || obj == nil {
		return nil
	}
	out := map[string]string{}
	flattenOutput("", obj, 1, out)
	return out
}

func flattenOutput(prefix string, obj map[string]any, depth int, out map[string]string) {
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		if len(out) >= MaxOutputFields {
			return
		}
		key := prefix + k
		if k == "" || refSegment(k) != "" || len(key) > MaxOutputKey || (prefix == "" && (k == "status" || k == "body")) {
			continue
		}
		var v string
		switch x := obj[k].(type) {
		case string:
			v = x
		case json.Number:
			v = x.String()
		case bool:
			v = strconv.FormatBool(x)
		case map[string]any:
			if depth < MaxOutputDepth {
				flattenOutput(key+".", x, depth+1, out)
			}
			continue
		default: // arrays, null
			continue
		}
		if len(v) <= MaxOutputValue {
			out[key] = v
		}
	}
}

// clipBytes is the first n bytes of b as text, cut at a character.
func clipBytes(b []byte, n int) string {
	if len(b) > n {
		b = b[:n]
		for range utf8.UTFMax - 1 { // a character the cut split
			if r, size := utf8.DecodeLastRune(b); r != utf8.RuneError || size != 1 {
				break
			}
			b = b[:len(b)-1]
		}
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

// clipText is s cut to n runes, "…" marking a cut.
func clipText(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}
