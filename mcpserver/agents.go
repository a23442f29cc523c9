package mcpserver

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/towow/towow/projections"
)

// The agent directory: list and search.

// ListAgentsInput is list_agents's input: the directory's filters.
type ListAgentsInput struct {
	Active   string `json:"active,omitempty" jsonschema:"true: only active agents; false: only deactivated ones"`
	Mode     string `json:"mode,omitempty" jsonschema:"twin (answered by its digital twin) or external (answers over the API itself)"`
	Tag      string `json:"tag,omitempty" jsonschema:"only agents with this tag, e.g. 场地提供"`
	Location string `json:"location,omitempty" jsonschema:"only agents in this city, e.g. 北京"`
	Cursor   string `json:"cursor,omitempty" jsonschema:"next_cursor of the previous page"`
	Limit    int    `json:"limit,omitempty" jsonschema:"agents per page, 1 to 500 (default 50)"`
}

// SearchAgentsInput is search_agents's input.
type SearchAgentsInput struct {
	Query    string `json:"query" jsonschema:"text to find in the agent's id, name or profile summary (case-insensitive), e.g. 摄影"`
	Tag      string `json:"tag,omitempty" jsonschema:"only agents with this tag as well"`
	Location string `json:"location,omitempty" jsonschema:"only agents in this city as well"`
	Limit    int    `json:"limit,omitempty" jsonschema:"at most this many, 1 to 500 (default 50)"`
}

// AgentsOutput is a page of the agent directory.
type AgentsOutput struct {
	Agents     []Agent `json:"agents"`
	NextCursor string  `json:"next_cursor,omitempty" jsonschema:"pass as cursor for the next page; absent on the last page"`
}

// Agent is an agent of the directory.
type Agent struct {
	AgentID string                 `json:"agent_id"`
	Mode    string                 `json:"mode" jsonschema:"twin or external"`
	Active  bool                   `json:"active"`
	Profile AgentProfile           `json:"profile"`
	Stats   projections.AgentStats `json:"stats" jsonschema:"participation statistics: invitations, offers, feedback, final participations"`
}

// AgentProfile is what an agent's profile says about it.
type AgentProfile struct {
	UserName       string            `json:"user_name,omitempty"`
	Location       string            `json:"location,omitempty"`
	Tags           []string          `json:"tags,omitempty"`
	ProfileSummary string            `json:"profile_summary,omitempty"`
	Capabilities   map[string]string `json:"capabilities,omitempty"`
	Interests      []string          `json:"interests,omitempty"`
	Availability   string            `json:"availability,omitempty"`
}

// defaultAgentPage is the page size when the caller names none (the
// API's own default, 100, is a lot of text for a model).
const defaultAgentPage = 50

func addAgentTools(s *mcp.Server, c *client) {
	addTool(s, &mcp.Tool{Name: "list_agents", Title: "List agents",
		Description: "List the agent directory (digital twins of real people and external agents) with their " +
			"profiles and participation statistics, filtered by active, mode, tag and location; page with cursor.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, _ *mcp.CallToolRequest, in ListAgentsInput) (*mcp.CallToolResult, AgentsOutput, error) {
			q := url.Values{}
			set(q, "active", in.Active)
			set(q, "mode", in.Mode)
			set(q, "tag", in.Tag)
			set(q, "location", in.Location)
			set(q, "cursor", in.Cursor)
			out, err := c.agents(ctx, q, in.Limit)
			return nil, out, err
		})

	addTool(s, &mcp.Tool{Name: "search_agents", Title: "Search agents",
		Description: "Find agents whose id, name or profile summary contains the query (case-insensitive), " +
			"optionally with a tag and a city.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, _ *mcp.CallToolRequest, in SearchAgentsInput) (*mcp.CallToolResult, AgentsOutput, error) {
			if in.Query == "" {
				return nil, AgentsOutput{}, errors.New("query is required")
			}
			q := url.Values{"q": {in.Query}}
			set(q, "tag", in.Tag)
			set(q, "location", in.Location)
			out, err := c.agents(ctx, q, in.Limit)
			return nil, out, err
		})
}

// agents reads a page of GET /api/v1/agents.
func (c *client) agents(ctx context.Context, q url.Values, limit int) (AgentsOutput, error) {
	if limit == 0 {
		limit = defaultAgentPage
	}
	q.Set("limit", strconv.Itoa(limit))
	var out AgentsOutput
	err := c.call(ctx, http.MethodGet, "/api/v1/agents", q, "", nil, &out)
	return out, err
}

// set adds a query parameter unless v is empty.
func set(q url.Values, k, v string) {
	if v != "" {
		q.Set(k, v)
	}
}
