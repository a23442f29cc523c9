package llm

import "fmt"

// promptOf is a prompt seen without its types, as the tests look at the
// registry's prompts.
type promptOf interface {
	spec() promptSpec
	// renderAny renders the prompt for in, a pointer to its input type.
	renderAny(in any) (string, error)
}

// promptSpec is the fixed part of a prompt's request.
type promptSpec struct {
	system       string
	maxTokens    int
	temperature  float64
	templateName string
}

func (p *Prompt[In, Reply, Out]) spec() promptSpec {
	return promptSpec{system: p.system, maxTokens: p.maxTokens, temperature: p.temperature, templateName: p.tmpl.Name()}
}

func (p *Prompt[In, Reply, Out]) renderAny(in any) (string, error) {
	typed, ok := in.(*In)
	if !ok {
		return "", fmt.Errorf("llm: render prompt %s: input is %T, want %T", p.key, in, typed)
	}
	return p.render(typed)
}
