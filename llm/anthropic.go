package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
)

// DefaultAnthropicModel is the model [NewAnthropic] uses when none is
// configured (LLM_MODEL unset).
const DefaultAnthropicModel = "claude-sonnet-4-5-20250929"

// AnthropicConfig configures [NewAnthropic].
type AnthropicConfig struct {
	// APIKey is sent as X-Api-Key. When it is set, the configuration is
	// explicit: the SDK's environment autoload (ANTHROPIC_API_KEY,
	// ANTHROPIC_BASE_URL, profiles) is skipped. When it is empty, the SDK
	// resolves credentials and base URL from the environment.
	APIKey string
	// BaseURL overrides the API endpoint (a proxy, or a test server); the
	// SDK appends "v1/messages".
	BaseURL string
	// Model defaults to [DefaultAnthropicModel].
	Model string
	// MaxRetries is the number of SDK-level retries of a failed request
	// (0: none; the Client's breaker and fallbacks handle failures).
	MaxRetries int
	// HTTPClient replaces the SDK's default HTTP client when non-nil.
	HTTPClient *http.Client
}

// anthropicProvider is the Provider returned by NewAnthropic.
type anthropicProvider struct {
	client anthropic.Client
	model  string
}

// NewAnthropic returns a Provider that calls the Anthropic Messages API
// (POST {base}/v1/messages): the request's system prompt as the system
// parameter, its prompt as the single user message, MaxTokens from the
// request (2048 if unset) and its temperature when positive.
func NewAnthropic(cfg AnthropicConfig) Provider {
	model := strings.TrimSpace(cfg.Model)
	if model == "" {
		model = DefaultAnthropicModel
	}
	var opts []option.RequestOption
	if cfg.APIKey != "" {
		opts = append(opts, option.WithoutEnvironmentDefaults(), option.WithAPIKey(cfg.APIKey))
	}
	if cfg.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(cfg.BaseURL))
	}
	if cfg.HTTPClient != nil {
		opts = append(opts, option.WithHTTPClient(cfg.HTTPClient))
	}
	opts = append(opts, option.WithMaxRetries(max(cfg.MaxRetries, 0)))
	return &anthropicProvider{client: anthropic.NewClient(opts...), model: model}
}

// Name implements Provider.
func (p *anthropicProvider) Name() string { return "anthropic" }

// Model implements Provider.
func (p *anthropicProvider) Model() string { return p.model }

// Complete implements Provider.
func (p *anthropicProvider) Complete(ctx context.Context, req Request) (Response, error) {
	params := anthropic.MessageNewParams{
		Model:     anthropic.Model(p.model),
		MaxTokens: maxTokens(req),
		Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(req.Prompt))},
	}
	if req.System != "" {
		params.System = []anthropic.TextBlockParam{{Text: req.System}}
	}
	if req.Temperature > 0 {
		params.Temperature = anthropic.Float(req.Temperature)
	}
	msg, err := p.client.Messages.New(ctx, params)
	if err != nil {
		var apiErr *anthropic.Error
		var resp *http.Response
		if errors.As(err, &apiErr) {
			resp = apiErr.Response
		}
		return Response{}, wrapProviderError(p.Name(), resp, err)
	}
	var text strings.Builder
	for _, block := range msg.Content {
		if block.Type == "text" {
			text.WriteString(block.Text)
		}
	}
	if strings.TrimSpace(text.String()) == "" {
		return Response{}, fmt.Errorf("anthropic: reply has no text (stop reason %q)", msg.StopReason)
	}
	model := string(msg.Model)
	if model == "" {
		model = p.model
	}
	return Response{
		Text:         text.String(),
		Model:        model,
		InputTokens:  int(msg.Usage.InputTokens),
		OutputTokens: int(msg.Usage.OutputTokens),
	}, nil
}
