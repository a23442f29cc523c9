package negotiate_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/towow/towow/bench"
	"github.com/towow/towow/writetest"
)

// BenchmarkNegotiations runs negotiations of the sample demands with the
// builtin brain, 8 at a time (orchestration cost, no LLM latency).
// go test -run '^$' -bench Negotiations -benchtime 40x ./agents
func BenchmarkNegotiations(b *testing.B) {
	h := writetest.New(b, writetest.Opts{})
	ctx := context.Background()
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	i := 0
	for b.Loop() {
		sem <- struct{}{}
		wg.Add(1)
		text := bench.SampleDemands[i%len(bench.SampleDemands)]
		i++
		go func() {
			defer func() { <-sem; wg.Done() }()
			sub, err := h.C.SubmitDemand(ctx, "bench", text)
			if err != nil {
				b.Error(err)
				return
			}
			h.Wait(sub.DemandID, 120*time.Second)
		}()
	}
	wg.Wait()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "negotiations/s")
}
