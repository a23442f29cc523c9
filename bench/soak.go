package bench

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/towow/towow/app"
)

// SoakOptions configures Soak.
type SoakOptions struct {
	N           int // negotiations in total (default 1000)
	Every       int // a memory sample after every this many (default 100)
	Concurrency int // negotiations in flight at once (default 8)
}

// SoakSample is the process's memory after some negotiations, measured
// after a garbage collection.
type SoakSample struct {
	Done        int
	RSS         uint64 // resident set size, bytes (0 where /proc is missing)
	HeapInuse   uint64
	HeapObjects uint64
	Goroutines  int
	Elapsed     time.Duration
}

// Soak runs N negotiations through a, Every at a time, and samples the
// process's memory before the first and after each batch, writing each
// sample to out as it is taken: memory that grows with every batch,
// rather than levelling off, is kept per negotiation.
func Soak(ctx context.Context, a *app.App, pool *pgxpool.Pool, opts SoakOptions, out io.Writer) ([]SoakSample, error) {
	opts.N = max(opts.N, 1)
	if opts.Every <= 0 {
		opts.Every = 100
	}
	fmt.Fprintf(out, "%12s %9s %16s %13s %11s %9s\n", "negotiations", "RSS MiB", "heap in use MiB", "heap objects", "goroutines", "elapsed")
	start := time.Now()
	samples := []SoakSample{sample(0, start)}
	writeSample(out, samples[0])
	for done := 0; done < opts.N; {
		n := min(opts.Every, opts.N-done)
		if _, err := Negotiate(ctx, a, pool, NegotiateOptions{N: n, Concurrency: opts.Concurrency}, nil); err != nil {
			return samples, err
		}
		done += n
		s := sample(done, start)
		samples = append(samples, s)
		writeSample(out, s)
	}
	return samples, nil
}

func sample(done int, start time.Time) SoakSample {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return SoakSample{Done: done, RSS: rss(), HeapInuse: ms.HeapInuse, HeapObjects: ms.HeapObjects,
		Goroutines: runtime.NumGoroutine(), Elapsed: time.Since(start)}
}

func writeSample(out io.Writer, s SoakSample) {
	fmt.Fprintf(out, "%12d %9.1f %16.1f %13d %11d %9s\n", s.Done, float64(s.RSS)/(1<<20), float64(s.HeapInuse)/(1<<20),
		s.HeapObjects, s.Goroutines, s.Elapsed.Round(100*time.Millisecond))
}

// rss reads the resident set size from /proc/self/status (Linux).
func rss() uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}
