package llm

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// ErrNoModel is returned by [OpenAIConfig.Validate], and wrapped by every
// Complete call of a provider built without a model: an OpenAI-compatible
// server has no sensible default model.
var ErrNoModel = errors.New("llm: openai: no model configured")

// OpenAIConfig configures [NewOpenAI].
type OpenAIConfig struct {
	// APIKey is sent as "Authorization: Bearer"; local servers (Ollama,
	// llama.cpp) usually need none. When empty, the SDK reads
	// OPENAI_API_KEY from the environment.
	APIKey string
	// BaseURL is the server's API root; the SDK appends "chat/completions".
	// For the real OpenAI API and most compatible servers it ends in "/v1"
	// (e.g. "http://localhost:11434/v1" for Ollama). When empty, the SDK
	// reads OPENAI_BASE_URL or uses https://api.openai.com/v1.
	BaseURL string
	// Model is required (e.g. "qwen2.5:7b", "gpt-4o-mini").
	Model string
	// MaxRetries is the number of SDK-level retries of a failed request
	// (0: none; the Client's breaker and fallbacks handle failures).
	MaxRetries int
	// HTTPClient replaces the SDK's default HTTP client when non-nil.
	HTTPClient *http.Client
}

// Validate reports a configuration [NewOpenAI] cannot work with: an empty
// model ([ErrNoModel]). Call it at start-up to fail fast.
func (c OpenAIConfig) Validate() error {
	if strings.TrimSpace(c.Model) == "" {
		return ErrNoModel
	}
	return nil
}

// openAIProvider is the Provider returned by NewOpenAI.
type openAIProvider struct {
	client openai.Client
	model  string
}

// NewOpenAI returns a Provider that calls an OpenAI-compatible chat
// completions endpoint (POST {base}/chat/completions): a system message and
// one user message, max_tokens from the request (2048 if unset) and its
// temperature when positive. max_tokens (not max_completion_tokens) is sent
// because that is what compatible servers understand.
//
// NewOpenAI never fails: with an empty Model (see [OpenAIConfig.Validate])
// every Complete returns an error wrapping [ErrNoModel] without any network
// traffic, so a Client using it always falls back.
func NewOpenAI(cfg OpenAIConfig) Provider {
	var opts []option.RequestOption
	if cfg.APIKey != "" {
		opts = append(opts, option.WithAPIKey(cfg.APIKey))
	}
	if cfg.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(cfg.BaseURL))
	}
	if cfg.HTTPClient != nil {
		opts = append(opts, option.WithHTTPClient(cfg.HTTPClient))
	}
	opts = append(opts, option.WithMaxRetries(max(cfg.MaxRetries, 0)))
	return &openAIProvider{client: openai.NewClient(opts...), model: strings.TrimSpace(cfg.Model)}
}

// Name implements Provider.
func (p *openAIProvider) Name() string { return "openai" }

// Model implements Provider.
func (p *openAIProvider) Model() string { return p.model }

// Complete implements Provider.
func (p *openAIProvider) Complete(ctx context.Context, req Request) (Response, error) {
	if p.model == "" {
		return Response{}, ErrNoModel
	}
	var msgs []openai.ChatCompletionMessageParamUnion
	if req.System != "" {
		msgs = append(msgs, openai.SystemMessage(req.System))
	}
	msgs = append(msgs, openai.UserMessage(req.Prompt))
	params := openai.ChatCompletionNewParams{
		Model:     openai.ChatModel(p.model),
		Messages:  msgs,
		MaxTokens: openai.Int(maxTokens(req)),
	}
	if req.Temperature > 0 {
		params.Temperature = openai.Float(req.Temperature)
	}
	r, err := p.client.Chat.Completions.New(ctx, params)
	if err != nil {
		var apiErr *openai.Error
		var resp *http.Response
		if errors.As(err, &apiErr) {
			resp = apiErr.Response
			if resp == nil {
				resp = &http.Response{StatusCode: apiErr.StatusCode}
			}
		}
		return Response{}, wrapProviderError(p.Name(), resp, err)
	}
	if len(r.Choices) == 0 {
		return Response{}, errors.New("openai: reply has no choices")
	}
	text := r.Choices[0].Message.Content
	if strings.TrimSpace(text) == "" {
		return Response{}, errors.New("openai: reply has no content")
	}
	model := r.Model
	if model == "" {
		model = p.model
	}
	return Response{
		Text:         text,
		Model:        model,
		InputTokens:  int(r.Usage.PromptTokens),
		OutputTokens: int(r.Usage.CompletionTokens),
	}, nil
}
