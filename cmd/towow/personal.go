package main

import (
	"context"
	"fmt"
	"io"

	"github.com/towow/towow/personal"
	"github.com/towow/towow/projections"
)

// cmdPersonal is `towow personal seal`: seal the personal texts of the
// events written before they were sealed, then rebuild the read models,
// which copied them as they were.
func cmdPersonal(ctx context.Context, cfg config, args []string, stdout, stderr io.Writer) error {
	if len(args) != 1 || args[0] != "seal" {
		return fmt.Errorf("%w: towow personal seal", errUsage)
	}
	pool, closeDB, err := openMigrated(ctx, cfg, cfg.quietLogger(stderr))
	if err != nil {
		return err
	}
	defer closeDB()
	res, err := personal.New(pool, nil).SealExisting(ctx, pool)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "sealed %d personal texts in %d events", res.Texts, res.Events)
	if res.Skipped > 0 {
		fmt.Fprintf(stdout, "; %d events left as they were (nobody's to seal them for)", res.Skipped)
	}
	fmt.Fprintln(stdout)
	if res.Events == 0 {
		return nil
	}
	_, err = rebuildModels(ctx, pool, projections.All(), stdout)
	return err
}
