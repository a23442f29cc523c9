package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/towow/towow/internal/pgcluster"
)

// backupTarget is the database a backup or restore works on: its URL
// without the password (given to the tool in PGPASSWORD, so that no
// process listing shows it), the tool's path, and done, which ends this
// process's use of the embedded cluster.
type backupTarget struct {
	url, password, tool string
	done                func()
}

// openBackupTarget resolves DATABASE_URL, or the embedded cluster of
// TOWOW_DATA_DIR (started when it is not running, stopped again by done
// when nobody else uses it), and the PostgreSQL program tool of the same
// installation as the cluster (the newest installed for DATABASE_URL).
func openBackupTarget(ctx context.Context, cfg config, stderr io.Writer, tool string) (backupTarget, error) {
	t := backupTarget{done: func() {}}
	raw := cfg.DatabaseURL
	var err error
	if raw == "" {
		c, serr := pgcluster.Start(ctx, pgcluster.Config{DataDir: cfg.embeddedDir(), Logger: cfg.logger(stderr)})
		if serr != nil {
			return t, serr
		}
		t.done = func() { _ = c.Stop(context.WithoutCancel(ctx)) }
		raw = c.URL("towow")
		t.tool, err = c.Tool(tool)
	} else {
		t.tool, err = pgcluster.ClientTool(tool)
	}
	if err != nil {
		t.done()
		return t, err
	}
	u, err := url.Parse(raw)
	if err != nil {
		t.done()
		return t, fmt.Errorf("DATABASE_URL: %w", err)
	}
	if u.User != nil {
		t.password, _ = u.User.Password()
		u.User = url.User(u.User.Username())
	}
	t.url = u.String()
	return t, nil
}

// run runs the tool with args and PGPASSWORD, returning its first error
// line when it fails.
func (t backupTarget) run(ctx context.Context, args ...string) error {
	cmd := exec.CommandContext(ctx, t.tool, args...)
	cmd.Env = append(os.Environ(), "PGPASSWORD="+t.password)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if i := strings.IndexByte(msg, '\n'); i > 0 {
			msg = msg[:i]
		}
		return fmt.Errorf("%s: %w: %s", t.tool, err, msg)
	}
	return nil
}

// major is the PostgreSQL major version of the tool ("pg_dump (PostgreSQL)
// 15.20 …" gives 15), 0 when it cannot tell.
func (t backupTarget) major(ctx context.Context) int {
	out, err := exec.CommandContext(ctx, t.tool, "--version").Output()
	if err != nil {
		return 0
	}
	f := strings.Fields(string(out))
	for i, w := range f {
		if w == "(PostgreSQL)" && i+1 < len(f) {
			n, _ := strconv.Atoi(strings.SplitN(f[i+1], ".", 2)[0])
			return n
		}
	}
	return 0
}

// connect opens a connection to the target database.
func (t backupTarget) connect(ctx context.Context) (*pgx.Conn, error) {
	cc, err := pgx.ParseConfig(t.url)
	if err != nil {
		return nil, err
	}
	cc.Password = t.password
	return pgx.ConnectConfig(ctx, cc)
}

// cmdBackup writes the whole database (the event log, the read models,
// River's queue, the schema's version) to FILE with pg_dump, in its
// compressed custom format, from one consistent snapshot: a running server
// may go on meanwhile. The file appears only once complete.
func cmdBackup(ctx context.Context, cfg config, args []string, stdout, stderr io.Writer) error {
	file, err := fileArg("backup", args, stderr)
	if err != nil {
		return err
	}
	t, err := openBackupTarget(ctx, cfg, stderr, "pg_dump")
	if err != nil {
		return err
	}
	defer t.done()
	partial := file + ".partial"
	dump := []string{"--format=custom", "--no-owner", "--no-privileges", "--file=" + partial, "--dbname=" + t.url}
	if t.major(ctx) >= 14 {
		// The columns' compression (lz4) is left out, so that the backup
		// restores onto a server built without lz4 too; restored rows keep
		// theirs, new ones take the target server's default.
		dump = append(dump, "--no-toast-compression")
	}
	if err := t.run(ctx, dump...); err != nil {
		_ = os.Remove(partial)
		return fmt.Errorf("backup: %w", err)
	}
	if err := os.Rename(partial, file); err != nil {
		_ = os.Remove(partial)
		return fmt.Errorf("backup: %w", err)
	}
	st, err := os.Stat(file)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "backup written to %s (%d bytes); restore it with: towow restore %s\n", file, st.Size(), file)
	return nil
}

// fileArg is the one FILE argument of `towow <name> FILE` (it takes no
// flags but -h).
func fileArg(name string, args []string, stderr io.Writer) (string, error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		return "", fmt.Errorf("%w: %w", errUsage, err)
	}
	if fs.NArg() != 1 {
		return "", fmt.Errorf("%w: towow %s FILE", errUsage, name)
	}
	return fs.Arg(0), nil
}

// errNotEmpty is a restore into a database that already holds tables.
var errNotEmpty = errors.New("the database is not empty")

// cmdRestore loads a backup of `towow backup` into an empty database: a
// fresh TOWOW_DATA_DIR's embedded cluster, or an empty DATABASE_URL. It
// refuses a database that holds any table (nothing is overwritten), loads
// everything in one transaction (a failure leaves the database empty),
// and moves the log's position base above every restored position, so
// that new events, and the cursors clients hold, continue from there.
func cmdRestore(ctx context.Context, cfg config, args []string, stdout, stderr io.Writer) error {
	file, err := fileArg("restore", args, stderr)
	if err != nil {
		return err
	}
	if _, err := os.Stat(file); err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	t, err := openBackupTarget(ctx, cfg, stderr, "pg_restore")
	if err != nil {
		return err
	}
	defer t.done()
	conn, err := t.connect(ctx)
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	var tables int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM pg_tables WHERE schemaname = 'public'`).Scan(&tables); err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	if tables > 0 {
		return fmt.Errorf("restore: %w (%d tables): restore into a fresh TOWOW_DATA_DIR or an empty database; nothing was changed", errNotEmpty, tables)
	}
	if err := t.run(ctx, "--exit-on-error", "--single-transaction", "--no-owner", "--no-privileges", "--dbname="+t.url, file); err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	var events int64
	var rebased bool
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM events`).Scan(&events); err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	if err := conn.QueryRow(ctx, `SELECT towow_rebase_positions()`).Scan(&rebased); err != nil {
		return fmt.Errorf("restore: move the position base: %w", err)
	}
	fmt.Fprintf(stdout, "restored %d events from %s; start the server on it (towow serve)\n", events, file)
	return nil
}
