package bench_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/towow/towow/bench"
	"github.com/towow/towow/internal/dbtest"
)

// TestAppendReportsEveryScenario runs a very short benchmark and checks the
// figures are consistent (not their size: machines are noisy).
func TestAppendReportsEveryScenario(t *testing.T) {
	pool := dbtest.New(t)
	opts := bench.AppendOptions{Writers: []int{1, 3}, Duration: 300 * time.Millisecond, BatchSize: 10}
	results, err := bench.Append(context.Background(), pool, opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 6 {
		t.Fatalf("%d results, want 3 scenarios x 2 writer counts", len(results))
	}
	for _, r := range results {
		perCommit := int64(1)
		if r.Scenario == "batch" {
			perCommit = 10
		}
		if r.Commits == 0 || r.Events != r.Commits*perCommit || r.LagSamples == 0 || r.LagP99 < r.LagP50 || r.LagMax < r.LagP99 {
			t.Errorf("inconsistent result %+v", r)
		}
		if r.Scenario != "contended" && r.Conflicts != 0 {
			t.Errorf("%s with its own stream per writer had %d conflicts", r.Scenario, r.Conflicts)
		}
	}
	var out bytes.Buffer
	if err := bench.Write(&out, results, 10); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"commits/s", "events/s", "conflicts/s", "lag p99", "batch of 10", "contended"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
}
