package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"sync"

	"github.com/danielgtaylor/huma/v2"

	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/domain/workflow"
	"github.com/towow/towow/identity"
)

// Who may call what. Every operation has one rule in accessRules; the
// authorize middleware enforces it before the handler runs, and Handler
// refuses to build an API with an operation that has none. The rules:
//
//   - A root demand's owner is the user who submitted it; the owner owns
//     the whole tree (channels, sub-negotiations, forks, the workflow and
//     its conversation, quality) and the admin may do anything.
//   - Anyone else asking for an owned resource gets 404, the answer for an
//     id that does not exist, so ids cannot be probed.
//   - An external agent reads only the channels it was invited to.
//   - Lists show only what the caller may see (their handlers filter), and
//     the global event list and stream are the admin's.

// who is the kind of principal an operation admits.
type who int

const (
	anyone    who = iota // no credentials needed
	signedIn             // a user, an external agent or the admin
	users                // a user or the admin
	admins               // the admin token
	agentOnly            // an external agent's own token
)

// resource is the owned thing an operation's parameter names.
type resource int

const (
	noResource  resource = iota
	demandRes            // a demand id (any demand of a tree)
	channelRes           // a channel id
	workflowRes          // a workflow id
)

// need is what the caller must be allowed on the resource.
type need int

const (
	read need = iota
	write
)

// accessRule is one operation's rule.
type accessRule struct {
	who   who
	res   resource
	param string // the path (or query) parameter naming the resource
	need  need
}

func open() accessRule        { return accessRule{who: anyone} }
func anySignedIn() accessRule { return accessRule{who: signedIn} }
func user() accessRule        { return accessRule{who: users} }
func admin() accessRule       { return accessRule{who: admins} }
func agent() accessRule       { return accessRule{who: agentOnly} }
func onDemand(param string, n need) accessRule {
	return accessRule{who: users, res: demandRes, param: param, need: n}
}
func onWorkflow(n need) accessRule {
	return accessRule{who: users, res: workflowRes, param: "workflow_id", need: n}
}
func onChannel(w who) accessRule { return accessRule{who: w, res: channelRes, param: "channel_id"} }

// accessRules is every operation's rule, by operation id.
var accessRules = map[string]accessRule{
	"healthz": open(), "readyz": open(), "event-catalog": open(), "workflow-node-types": open(),
	"status": anySignedIn(), "list-agents": anySignedIn(), "get-agent": anySignedIn(),
	// An agent's history holds other people's demands: the agent itself,
	// the admin, and a user for the negotiations they may see (filtered).
	"agent-history": anySignedIn(),

	"create-agent": admin(), "update-agent": admin(), "deactivate-agent": admin(), "reactivate-agent": admin(),
	"issue-agent-token": admin(), "bulk-load-agents": admin(), "rebuild-read-model": admin(), "event-stream": admin(),

	"agent-inbox": agent(), "submit-offer": agent(), "submit-feedback": agent(), "report-task": agent(),

	// An invited agent reads its channel and its proposals; the offers and
	// feedback of the others are the owner's.
	"get-channel": onChannel(signedIn), "channel-state": onChannel(signedIn), "channel-proposals": onChannel(signedIn),
	"channel-participants": onChannel(signedIn), "channel-offers": onChannel(users), "channel-feedback": onChannel(users),

	"submit-demand": user(), "list-demands": user(), "list-events": user(), "list-llm-calls": user(),
	"compare-negotiations": user(), "quality": user(),
	"get-demand": onDemand("demand_id", read), "demand-quality": onDemand("demand_id", read),
	"negotiation-stream": onDemand("demand_id", read), "replay-negotiation": onDemand("demand_id", read),
	"negotiation-view": onDemand("demand_id", read), "compare-fork": onDemand("fork_id", read),
	"list-workflows": onDemand("demand_id", read),
	"clarify-demand": onDemand("demand_id", write), "fork-negotiation": onDemand("demand_id", write),

	"get-workflow": onWorkflow(read), "get-canvas": onWorkflow(read), "list-messages": onWorkflow(read),
	"workflow-stream": onWorkflow(read), "approve-node": onWorkflow(read),
	"change-canvas": onWorkflow(write), "decide-workflow": onWorkflow(write), "send-message": onWorkflow(write),
}

// Auth error codes.
const (
	CodeUnauthorized = "TOWOW_AUTH_001" // 401: no credentials, or credentials that are not valid
	CodeForbidden    = "TOWOW_AUTH_002" // 403: valid credentials that may not do this
	CodeNotYou       = "TOWOW_AUTH_003" // 422: a user_id in the request that is not the caller's
)

// owners finds who owns a resource, from the log: a demand's
// towow.demand.submitted names its user (a sub-negotiation's and a fork's
// carry the tree's), a channel's towow.channel.created its demand, a
// workflow's towow.workflow.created its demand. An owner never changes,
// so answers are kept (up to ownerCacheSize, then forgotten at once).
type owners struct {
	events EventReader
	mu     sync.Mutex
	known  map[string]string // "demand:<id>" etc. → owner user id
}

const ownerCacheSize = 50_000

func newOwners(events EventReader) *owners {
	return &owners{events: events, known: map[string]string{}}
}

// errNoOwner: the resource does not exist (yet).
var errNoOwner = errors.New("no such resource")

// first returns the first event of a stream, decoded.
func (o *owners) first(ctx context.Context, stream string) (any, error) {
	evs, err := o.events.ReadStream(ctx, stream, 0, 1)
	if err != nil {
		return nil, err
	}
	if len(evs) == 0 {
		return nil, errNoOwner
	}
	return evs[0].Decode()
}

// of returns the owner of the resource id names.
func (o *owners) of(ctx context.Context, res resource, id string) (string, error) {
	key := fmt.Sprintf("%d:%s", res, id)
	o.mu.Lock()
	owner, ok := o.known[key]
	o.mu.Unlock()
	if ok {
		return owner, nil
	}
	var err error
	switch res {
	case demandRes:
		var p any
		if p, err = o.first(ctx, negotiation.DemandStream(id)); err == nil {
			d, isDemand := p.(*negotiation.DemandSubmitted)
			if !isDemand {
				return "", errNoOwner
			}
			owner = d.UserID
		}
	case channelRes:
		var p any
		if p, err = o.first(ctx, negotiation.ChannelStream(id)); err == nil {
			c, isChannel := p.(*negotiation.ChannelCreated)
			if !isChannel {
				return "", errNoOwner
			}
			owner, err = o.of(ctx, demandRes, c.DemandID)
		}
	case workflowRes:
		var p any
		if p, err = o.first(ctx, workflow.WorkflowStream(id)); err == nil {
			w, isWorkflow := p.(*workflow.WorkflowCreated)
			if !isWorkflow {
				return "", errNoOwner
			}
			owner, err = o.of(ctx, demandRes, w.DemandID)
		}
	}
	if err != nil {
		return "", err
	}
	o.mu.Lock()
	if len(o.known) >= ownerCacheSize {
		clear(o.known)
	}
	o.known[key] = owner
	o.mu.Unlock()
	return owner, nil
}

// may reports whether p may do n on a resource owned by owner: the admin
// always, the owner always; anyone else never.
func may(p identity.Principal, owner string, _ need) bool {
	return p.IsAdmin() || (p.IsUser() && p.ID == owner)
}

// canSee reports whether p may read a resource (false, nil: it is not
// theirs, or it does not exist).
func (o *owners) canSee(ctx context.Context, p identity.Principal, res resource, id string) (bool, error) {
	if p.IsAdmin() {
		return true, nil
	}
	owner, err := o.of(ctx, res, id)
	if errors.Is(err, errNoOwner) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return may(p, owner, read), nil
}

// agentInvited reports whether the external agent was invited to the
// channel (its roster, folded from the log).
func (o *owners) agentInvited(ctx context.Context, agentID, channelID string) (bool, error) {
	var c negotiation.Channel
	if _, err := o.events.Fold(ctx, negotiation.ChannelStream(channelID), c.Apply); err != nil {
		return false, err
	}
	return c.Invited(agentID), nil
}

// notFoundFor is the 404 of a resource id, word for word the one its
// operations give for an id that does not exist.
func notFoundFor(res resource, id string) error {
	switch res {
	case channelRes:
		return notFound(fmt.Sprintf("no channel %s", id))
	case workflowRes:
		return notFound(fmt.Sprintf("no workflow %s", id))
	}
	return notFound(fmt.Sprintf("no demand %s", id))
}

// authorize enforces accessRules (an API middleware: it runs before every
// operation's own middlewares and handler).
func (g guard) authorize(api huma.API) func(huma.Context, func(huma.Context)) {
	return func(ctx huma.Context, next func(huma.Context)) {
		rule, ok := accessRules[ctx.Operation().OperationID]
		if !ok {
			_ = huma.WriteErr(api, ctx, http.StatusInternalServerError, "internal error")
			return
		}
		a := authOf(ctx.Context())
		if rule.who != anyone && a.err != nil {
			writeAuthError(api, ctx, a.err)
			return
		}
		p := a.principal
		switch {
		case rule.who == anyone:
			next(ctx)
			return
		case p.Anonymous():
			writeUnauthorized(api, ctx, "sign in: send Authorization: Bearer <token> (a user's token, an agent's token or the admin token)")
			return
		case rule.who == admins && !p.IsAdmin(),
			rule.who == agentOnly && p.Kind != identity.KindAgent,
			rule.who == users && !p.IsUser() && !p.IsAdmin():
			_ = huma.WriteErr(api, ctx, http.StatusForbidden, forbiddenFor(rule.who), &huma.ErrorDetail{Location: "Authorization", Value: string(p.Kind)})
			return
		}
		if rule.res == noResource {
			next(ctx)
			return
		}
		id := ctx.Param(rule.param)
		if id == "" {
			id = ctx.Query(rule.param)
		}
		if id == "" { // a missing required parameter: the operation says so
			next(ctx)
			return
		}
		var allowed bool
		var err error
		switch {
		case p.Kind == identity.KindAgent && rule.res == channelRes:
			allowed, err = g.owners.agentInvited(ctx.Context(), p.ID, id)
		case p.Kind == identity.KindAgent:
			allowed = false
		default:
			var owner string
			owner, err = g.owners.of(ctx.Context(), rule.res, id)
			if errors.Is(err, errNoOwner) {
				owner, err = "", nil
			}
			allowed = err == nil && (p.IsAdmin() || (owner != "" && may(p, owner, rule.need)))
		}
		if err != nil {
			writeErr(api, ctx, problem(err))
			return
		}
		if !allowed {
			writeErr(api, ctx, notFoundFor(rule.res, id))
			return
		}
		next(ctx)
	}
}

// forbiddenFor says who an operation is for.
func forbiddenFor(w who) string {
	switch w {
	case admins:
		return "this operation is the operator's: it needs the admin token"
	case agentOnly:
		return "this operation is an external agent's: it needs that agent's token"
	}
	return "this operation is a person's: sign in as a user"
}

// writeErr writes an error made by problem, notFound or newProblem.
func writeErr(_ huma.API, ctx huma.Context, err error) {
	var se huma.StatusError
	if !errors.As(err, &se) {
		se = huma.NewError(http.StatusInternalServerError, "internal error")
	}
	var he huma.HeadersError
	if errors.As(err, &he) {
		for k, vs := range he.GetHeaders() {
			for _, v := range vs {
				ctx.AppendHeader(k, v)
			}
		}
	}
	ctx.SetHeader("Content-Type", "application/problem+json")
	ctx.SetStatus(se.GetStatus())
	_ = json.NewEncoder(ctx.BodyWriter()).Encode(se)
}

// checkRules fails when an operation of the document has no access rule,
// and documents each operation's security requirement.
func checkRules(oapi *huma.OpenAPI) error {
	var missing []string
	for _, item := range oapi.Paths {
		for _, op := range []*huma.Operation{item.Get, item.Post, item.Put, item.Patch, item.Delete} {
			if op == nil {
				continue
			}
			rule, ok := accessRules[op.OperationID]
			if !ok {
				missing = append(missing, op.OperationID)
				continue
			}
			op.Security = securityOf(rule.who)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return fmt.Errorf("operations without an access rule: %v", missing)
	}
	return nil
}

// actingUser is the user a request acts for: the signed-in user (a
// user_id the request names must be theirs: 422 TOWOW_AUTH_003 otherwise),
// or for the admin the user_id it names (the operator acts for someone),
// else the operator's own user, identity.OperatorUser.
func actingUser(ctx context.Context, named, where string) (string, error) {
	p := principalOf(ctx)
	switch {
	case p.IsAdmin() && named == "":
		return identity.OperatorUser, nil
	case p.IsAdmin():
		return named, nil
	case named != "" && named != p.ID:
		return "", newProblemAt(http.StatusUnprocessableEntity, CodeNotYou,
			where+" is not you: you are signed in as "+p.ID+" (leave user_id out; the server knows who you are)", where)
	}
	return p.ID, nil
}

// userActor is the actor a user's workflow decision records.
func userActor(ctx context.Context, named, where string) (string, error) {
	id, err := actingUser(ctx, named, where)
	if err != nil {
		return "", err
	}
	return "user:" + id, nil
}

// ownScope is the user filter of a list: the caller's own (a user_id that
// is not theirs: 422), or for the admin the one it names ("" = everyone).
func ownScope(ctx context.Context, named string) (string, error) {
	if principalOf(ctx).IsAdmin() {
		return named, nil
	}
	return actingUser(ctx, named, "user_id")
}

// seeDemand is nil when the caller may read the demand, else its 404.
func (o *owners) seeDemand(ctx context.Context, demandID string) error {
	ok, err := o.canSee(ctx, principalOf(ctx), demandRes, demandID)
	switch {
	case err != nil:
		return problem(err)
	case !ok:
		return notFoundFor(demandRes, demandID)
	}
	return nil
}

// oneOfYours is nil when the caller may read what a list selects: the
// admin anything; a user one of their own negotiations, named by
// demandID (a list across negotiations is the operator's: 403).
func (o *owners) oneOfYours(ctx context.Context, demandID, what string) error {
	if principalOf(ctx).IsAdmin() {
		return nil
	}
	if demandID == "" {
		return newProblemAt(http.StatusForbidden, CodeForbidden,
			what+" across negotiations is the operator's: name one of your negotiations with demand_id", "demand_id")
	}
	return o.seeDemand(ctx, demandID)
}
