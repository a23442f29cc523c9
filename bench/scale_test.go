package bench_test

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/towow/towow/app"
	"github.com/towow/towow/bench"
	"github.com/towow/towow/internal/dbtest"
	"github.com/towow/towow/llm"
	"github.com/towow/towow/llm/builtin"
)

// TestScaleGrowsTheLogAndReadsItBack runs a small scale benchmark: two
// negotiations and a fork are copied until the log holds 3,000 and then
// 6,000 events, and at each size every per-tree query answers over HTTP
// (an error fails the run), the read models rebuild and catch up with
// 1,000 more events, and the figures are consistent.
func TestScaleGrowsTheLogAndReadsItBack(t *testing.T) {
	ctx := context.Background()
	pool := dbtest.New(t)
	token := "scale-admin-token-0123456789"
	a, err := app.New(ctx, app.Config{Pool: pool, Hub: true, AdminToken: token,
		LLM: llm.Config{Provider: builtin.New()}})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	bench.ScaleReadModels(a, pool)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: a.API().Handler()}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()

	points, err := bench.Scale(ctx, a, pool, bench.ScaleOptions{Sizes: []int64{3000, 6000}, Templates: 2, Forks: 1, Repeat: 3, CatchUp: 1000,
		Base: "http://" + ln.Addr().String(), Token: token}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(points) != 2 {
		t.Fatalf("%d points, want 2", len(points))
	}
	for i, p := range points {
		if p.Events < []int64{3000, 6000}[i] || p.Trees < 3 || p.Rebuild <= 0 || p.CatchUp <= 0 || p.CatchUpEvents < 1000 || p.EventBytes <= 0 || p.ReadModelBytes <= 0 ||
			p.Audit[0] <= 0 || p.Audit[1] < p.Audit[0] || p.Demand[0] <= 0 || p.Resume[0] <= 0 || p.ReadYourWrites[0] <= 0 {
			t.Errorf("point %d inconsistent: %+v", i, p)
		}
	}
	if points[1].Trees <= points[0].Trees || points[1].EventBytes <= points[0].EventBytes {
		t.Errorf("the log did not grow: %+v then %+v", points[0], points[1])
	}
	var out bytes.Buffer
	if err := bench.WriteScale(&out, points); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "disk per tree") {
		t.Errorf("report:\n%s", out.String())
	}
}
