package api_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/towow/towow/apifuzz"
)

// TestOpenAPIFuzz walks the published OpenAPI document with 5,000 valid,
// boundary and hostile requests (paths, queries, bodies; no credentials,
// the admin token, a valid and a bogus agent token): no 5xx, every status
// declared, every error problem+json with a TOWOW_* code, every JSON body
// (answer or problem) valid against the schema its status declares, every stream server-sent events, and
// nothing written by a refused request (the log's head does not move: the
// engine runs no steps here, so only an accepted command writes).
// `towow fuzz -n N` runs the same for longer.
func TestOpenAPIFuzz(t *testing.T) {
	a := newAPIWith(t, "", apiOptions{noWorkers: true})
	rep, err := apifuzz.Run(context.Background(), apifuzz.Options{BaseURL: a.url, Requests: 5000, Seed: 7,
		AdminToken: testAdminToken, UserTokens: []string{userToken(t, "fuzz_a"), userToken(t, "fuzz_b")}, Head: a.store.LatestPosition,
		Client: &http.Client{Transport: plainTransport, Timeout: 10 * time.Second,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", rep)
	if rep.Operations < 25 {
		t.Fatalf("only %d operations in the document", rep.Operations)
	}
	for _, s := range []int{200, 201, 202, 400, 401, 404, 409, 422} {
		if rep.Statuses[s] == 0 {
			t.Errorf("no answer with status %d: the fuzzer missed a whole class (%v)", s, rep.Statuses)
		}
	}
	if rep.Validated < 500 || rep.Streams < 3 { // a stream answers only the right credentials: the admin's, or the owner's
		t.Errorf("only %d bodies validated and %d streams read", rep.Validated, rep.Streams)
	}
}
