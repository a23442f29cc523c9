package llm

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"text/template"
)

// PromptKey names one prompt. It is also the key of the prompt's fallback
// and the "prompt_key" of the recorded call (event.LLMCall).
type PromptKey string

// Prompt is one prompt whole: its key, system prompt, text/template,
// completion budget, the type of its input (In), of the JSON object its
// reply holds (Reply) and of its validated result (Out), how a reply is
// validated and the fallback result. Each prompt is one value declared in
// its own file (prompt_<name>.go); [Call] runs it through a [Client], and
// the offline builtin brain answers it by registering against the value.
//
// A Prompt is immutable; the package defines every one of them.
type Prompt[In, Reply, Out any] struct {
	key    PromptKey
	system string // one line, Chinese
	// template is the prompt's text/template (in Chinese), executed on *In
	// with the shared functions (baseFuncs) and funcs.
	template    string
	funcs       template.FuncMap
	maxTokens   int
	temperature float64
	// replyKeys are top-level keys that identify the reply's JSON object
	// when the text holds several.
	replyKeys []string
	// validate turns the decoded reply into the result; an unusable reply
	// is an error wrapping errInvalidReply. Agent ids the input does not
	// name are dropped.
	validate func(raw *Reply, in *In) (Out, error)
	// fallback is the result when the model fails, built deterministically
	// from the input alone, so that the work goes on, more plainly.
	fallback func(in *In) Out

	tmpl *template.Template // parsed by define
}

// Key returns the prompt's key.
func (p *Prompt[In, Reply, Out]) Key() PromptKey { return p.key }

// render renders the prompt for in.
func (p *Prompt[In, Reply, Out]) render(in *In) (string, error) {
	var b bytes.Buffer
	if err := p.tmpl.Execute(&b, in); err != nil {
		return "", fmt.Errorf("llm: render prompt %s: %w", p.key, err)
	}
	return b.String(), nil
}

// parse finds the JSON object of a reply, decodes it leniently into the
// prompt's reply shape and validates it into the result. A reply without
// a JSON object, or whose content is unusable, is an error wrapping
// errInvalidReply: the Client then records a parse_error and falls back.
func (p *Prompt[In, Reply, Out]) parse(text string, in *In) (Out, error) {
	var raw Reply
	if err := decode(text, &raw, p.replyKeys...); err != nil {
		var zero Out
		return zero, err
	}
	return p.validate(&raw, in)
}

// fallbackReason is the reason recorded where a fallback declines
// something.
const fallbackReason = "LLM unavailable"

// prompts are the defined prompts by key.
var prompts = map[PromptKey]any{}

// define parses p's template (named "<key>.tmpl"; a missing key is an
// error) and registers p under its key. It panics on a template that does
// not parse or a key defined twice: both are programming errors, caught
// when the package loads.
func define[In, Reply, Out any](p Prompt[In, Reply, Out]) *Prompt[In, Reply, Out] {
	if _, dup := prompts[p.key]; dup {
		panic("llm: prompt " + string(p.key) + " defined twice")
	}
	p.tmpl = template.Must(template.New(string(p.key) + ".tmpl").Option("missingkey=error").
		Funcs(baseFuncs).Funcs(p.funcs).Parse(p.template))
	prompts[p.key] = &p
	return &p
}

// PromptKeys returns the keys of every prompt, sorted.
func PromptKeys() []PromptKey {
	return slices.Sorted(maps.Keys(prompts))
}

// PromptTokens renders the prose prompt of p for in with its system prompt
// and estimates its size in tokens the way the builtin brain reports it
// (about two characters a token), the same for every provider: what
// `towow bench filter` compares across network sizes.
func PromptTokens[In, Reply, Out any](p *Prompt[In, Reply, Out], in *In) (int, error) {
	text, err := p.render(in)
	if err != nil {
		return 0, err
	}
	return EstimateTokens(p.system) + EstimateTokens(text), nil
}
