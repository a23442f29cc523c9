package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/towow/towow/internal/pgcluster"
)

// TestDBURLLeavesStoppingAlone: `towow db url` on a cluster a server
// started prints its URL and changes nothing about who stops it: when the
// server's use ends, the cluster stops (no detached marker is left).
func TestDBURLLeavesStoppingAlone(t *testing.T) {
	dataDir := traversableTempDir(t)
	pgDir := filepath.Join(dataDir, "pg")
	ctx := context.Background()
	t.Cleanup(func() { _ = pgcluster.Stop(ctx, pgDir) })
	server, err := pgcluster.Start(ctx, pgcluster.Config{DataDir: pgDir}) // as towow serve starts it
	if err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runTowow(t, nil, "db", "url", "--data-dir", pgDir)
	if code != 0 || strings.TrimSpace(out) != server.URL("towow") {
		t.Fatalf("towow db url: %d %q %s, want %s", code, out, errOut, server.URL("towow"))
	}
	if _, err := os.Stat(pgDir + ".detached"); !os.IsNotExist(err) {
		t.Fatalf("towow db url marked the cluster detached (%v)", err)
	}
	if err := server.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	if running, _, err := pgcluster.Status(pgDir); err != nil || running {
		t.Fatalf("the cluster still runs after the server that started it stopped (%v)", err)
	}
}
