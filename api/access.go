package api

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
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
//   - The owner shares the tree with collaborators: a viewer reads all of
//     it, an editor also edits the workflow (canvas, chat, decisions);
//     only the owner shares, clarifies and forks.
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
	read  need = iota // the owner, a collaborator, the admin
	write             // the owner, an editor, the admin
	own               // the owner, the admin
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
	"healthz": open(), "readyz": open(), "event-catalog": open(), "workflow-node-types": open(), "workflow-templates": open(),
	"create-workflow": user(),
	// A person erases their own data (the handler answers 404 for anyone
	// else's), the admin anyone's.
	"erase-user-data": user(),
	// An agent erases its own profile (the handler answers 404 for any
	// other), the admin any agent's.
	"erase-agent-data": anySignedIn(),
	"status":           anySignedIn(), "list-agents": anySignedIn(), "get-agent": anySignedIn(),
	// A person's or an external agent's own inbox and webhooks.
	"list-notices": anySignedIn(), "notice-stream": anySignedIn(), "create-webhook": anySignedIn(),
	"list-webhooks": anySignedIn(), "delete-webhook": anySignedIn(), "redeliver-webhook": anySignedIn(),
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
	"compare-negotiations": user(), "quality": user(), "pending-approvals": user(),
	"get-demand": onDemand("demand_id", read), "demand-quality": onDemand("demand_id", read),
	"negotiation-stream": onDemand("demand_id", read), "replay-negotiation": onDemand("demand_id", read),
	"negotiation-view": onDemand("demand_id", read), "compare-fork": onDemand("fork_id", read),
	"list-workflows": onDemand("demand_id", read),
	"clarify-demand": onDemand("demand_id", own), "fork-negotiation": onDemand("demand_id", own),
	"list-collaborators": onDemand("demand_id", read),
	"share-negotiation":  onDemand("demand_id", own), "unshare-negotiation": onDemand("demand_id", own),

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
// towow.demand.submitted names its user and its tree's root (a
// sub-negotiation's and a fork's carry the tree's user), a channel's
// towow.channel.created its demand, a workflow's towow.workflow.created its
// demand (or, for a person's own workflow, its user). An owner never changes, so answers are kept (up to
// ownerCacheSize, then forgotten at once); the collaborators do change,
// and are read from the tree's sharing stream each time they are asked.
type owners struct {
	events EventReader
	mu     sync.Mutex
	known  map[string]tree // "<resource>:<id>" → its tree
}

// tree is the negotiation tree a resource belongs to.
type tree struct {
	owner string // the user who submitted the root demand
	root  string // the root demand id
}

const ownerCacheSize = 50_000

func newOwners(events EventReader) *owners {
	return &owners{events: events, known: map[string]tree{}}
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

// of returns the tree of the resource id names.
func (o *owners) of(ctx context.Context, res resource, id string) (tree, error) {
	key := fmt.Sprintf("%d:%s", res, id)
	o.mu.Lock()
	t, ok := o.known[key]
	o.mu.Unlock()
	if ok {
		return t, nil
	}
	var stream string
	switch res {
	case demandRes:
		stream = negotiation.DemandStream(id)
	case channelRes:
		stream = negotiation.ChannelStream(id)
	case workflowRes:
		stream = workflow.WorkflowStream(id)
	}
	p, err := o.first(ctx, stream)
	if err != nil {
		return tree{}, err
	}
	switch e := p.(type) {
	case *negotiation.DemandSubmitted:
		t = tree{owner: e.UserID, root: cmp.Or(e.RootDemandID, e.DemandID)}
	case *negotiation.ChannelCreated:
		t, err = o.of(ctx, demandRes, e.DemandID)
	case *workflow.WorkflowCreated:
		if e.DemandID == "" { // a person's own workflow: theirs alone
			t = tree{owner: e.UserID, root: e.WorkflowID}
			break
		}
		t, err = o.of(ctx, demandRes, e.DemandID)
	default:
		return tree{}, errNoOwner
	}
	if err != nil {
		return tree{}, err
	}
	o.mu.Lock()
	if len(o.known) >= ownerCacheSize {
		clear(o.known)
	}
	o.known[key] = t
	o.mu.Unlock()
	return t, nil
}

// allows reports whether p may do n on t: the admin and the owner
// anything, a collaborator what their role allows (read for a viewer,
// read and write for an editor), anyone else nothing.
func (o *owners) allows(ctx context.Context, p identity.Principal, t tree, n need) (bool, error) {
	switch {
	case p.IsAdmin() || (p.IsUser() && p.ID == t.owner):
		return true, nil
	case !p.IsUser() || n == own:
		return false, nil
	}
	var sh negotiation.Sharing
	if _, err := o.events.Fold(ctx, negotiation.SharingStream(t.root), sh.Apply); err != nil {
		return false, err
	}
	return sh.RoleOf(p.ID).Allows(n == write), nil
}

// canSee reports whether p may read a resource (false, nil: it is not
// theirs to read, or it does not exist).
func (o *owners) canSee(ctx context.Context, p identity.Principal, res resource, id string) (bool, error) {
	if p.IsAdmin() {
		return true, nil
	}
	t, err := o.of(ctx, res, id)
	if errors.Is(err, errNoOwner) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return o.allows(ctx, p, t, read)
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
			var t tree
			t, err = g.owners.of(ctx.Context(), rule.res, id)
			switch {
			case errors.Is(err, errNoOwner):
				// Nothing to own: the admin gets the operation's own answer
				// (its validation, its not-found); anyone else the 404.
				allowed, err = p.IsAdmin(), nil
			case err == nil:
				allowed, err = g.owners.allows(ctx.Context(), p, t, rule.need)
			}
		}
		if err != nil {
			writeErr(api, ctx, problem(err))
			return
		}
		if !allowed && rule.need > read && p.IsUser() {
			// One who may read it is told why they may not change it.
			if t, terr := g.owners.of(ctx.Context(), rule.res, id); terr == nil {
				if canRead, _ := g.owners.allows(ctx.Context(), p, t, read); canRead {
					writeErr(api, ctx, newProblem(http.StatusForbidden, CodeForbidden, forbiddenNeed(rule.need)))
					return
				}
			}
		}
		if !allowed {
			writeErr(api, ctx, notFoundFor(rule.res, id))
			return
		}
		next(ctx)
	}
}

// forbiddenNeed says why a collaborator may not do this.
func forbiddenNeed(n need) string {
	if n == own {
		return "only the negotiation's owner may do this (share it, clarify it, fork it)"
	}
	return "this negotiation is shared with you to read: its owner may make you an editor"
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
// demandID, or one of their own workflows (a workflow started without a
// negotiation correlates its events by its own id); a list across
// negotiations is the operator's: 403.
func (o *owners) oneOfYours(ctx context.Context, demandID, what string) error {
	if principalOf(ctx).IsAdmin() {
		return nil
	}
	if demandID == "" {
		return newProblemAt(http.StatusForbidden, CodeForbidden,
			what+" across negotiations is the operator's: name one of your negotiations with demand_id", "demand_id")
	}
	if !strings.HasPrefix(demandID, "d-") {
		// Not a demand id: one of the caller's own workflows, perhaps.
		if ok, err := o.canSee(ctx, principalOf(ctx), workflowRes, demandID); err == nil && ok {
			return nil // a person's own workflow: its events carry its id as their correlation
		}
	}
	return o.seeDemand(ctx, demandID)
}
