package eventstore_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/towow/towow/eventstore"
)

// BenchmarkAppend measures one writer appending to its own stream, one
// transaction per append, on the real database. Report events/s with
// `go test -run '^$' -bench Append ./eventstore`.
func BenchmarkAppend(b *testing.B) {
	for _, size := range []int{1, 100} {
		b.Run(fmt.Sprintf("events=%d", size), func(b *testing.B) {
			s := eventstore.New(newBenchPool(b), eventstore.Options{})
			ctx := context.Background()
			events := make([]eventstore.EventData, size)
			var version int64
			b.ResetTimer()
			for b.Loop() {
				for i := range events {
					events[i] = ev("towow.offer.submitted", `{"agent_id":"agent-42","decision":"participate","contribution":"可以提供北京朝阳区的场地","confidence":"high"}`)
				}
				res, err := s.Append(ctx, "bench", eventstore.ExpectedVersion(version), events...)
				if err != nil {
					b.Fatal(err)
				}
				version = res.LastVersion
			}
			b.ReportMetric(float64(b.N*size)/b.Elapsed().Seconds(), "events/s")
		})
	}
}
