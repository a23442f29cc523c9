package pgcluster

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

const (
	// superuser is the role initdb creates; towow connects as it.
	superuser = "towow"
	// appDatabase is created next to initdb's "postgres" database.
	appDatabase = "towow"
)

// initCluster creates a new cluster for l.dataDir: initdb in the scratch
// directory <dir>.init, then the towow database in single-user mode, then
// the password file, and only then the rename to <dir>, so that an
// interrupted initialisation never leaves a half-made cluster behind. It
// returns the superuser password.
func initCluster(ctx context.Context, l layout, a *account, bins binaries) (string, error) {
	entries, err := os.ReadDir(l.dataDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("read data directory: %w", err)
	}
	if len(entries) > 0 {
		return "", fmt.Errorf("%s is not empty and holds no PostgreSQL cluster (no PG_VERSION): move it away or choose another data directory", l.dataDir)
	}

	scratch := l.dataDir + ".init"
	if err := os.RemoveAll(scratch); err != nil {
		return "", fmt.Errorf("remove leftover %s: %w", scratch, err)
	}
	if err := os.Mkdir(scratch, 0o700); err != nil {
		return "", fmt.Errorf("create scratch directory: %w", err)
	}
	defer os.RemoveAll(scratch)
	if err := a.chown(scratch); err != nil {
		return "", err
	}

	password, err := newPassword()
	if err != nil {
		return "", err
	}
	pwFile := filepath.Join(scratch, "pwfile")
	if err := os.WriteFile(pwFile, []byte(password+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("write initdb password file: %w", err)
	}
	if err := a.chown(pwFile); err != nil {
		return "", err
	}

	data := filepath.Join(scratch, "data")
	cmd := a.command(ctx, scratch, bins.initdb,
		"-D", data,
		"-U", superuser,
		"--pwfile="+pwFile,
		"--encoding=UTF8",
		"--locale=C",
		"--auth-local=peer",
		"--auth-host=scram-sha-256",
	)
	if err := run(cmd); err != nil {
		return "", fmt.Errorf("initdb: %w", err)
	}
	if err := singleUser(ctx, a, bins, data, scratch, "CREATE DATABASE "+appDatabase); err != nil {
		return "", fmt.Errorf("create database %s: %w", appDatabase, err)
	}
	if err := writeFileAtomic(l.password, password+"\n", 0o600); err != nil {
		return "", err
	}
	// rename(2) replaces l.dataDir if it is an empty directory.
	if err := os.Rename(data, l.dataDir); err != nil {
		return "", fmt.Errorf("move new cluster into place: %w", err)
	}
	return password, nil
}

// resetPassword gives the superuser a new password (when the password file
// was lost) through single-user mode; the cluster must be stopped.
func resetPassword(ctx context.Context, l layout, a *account, bins binaries) (string, error) {
	password, err := newPassword()
	if err != nil {
		return "", err
	}
	sql := fmt.Sprintf("ALTER ROLE %s PASSWORD '%s'", superuser, password)
	if err := singleUser(ctx, a, bins, l.dataDir, l.dataDir, sql); err != nil {
		return "", fmt.Errorf("reset password: %w", err)
	}
	if err := writeFileAtomic(l.password, password+"\n", 0o600); err != nil {
		return "", err
	}
	return password, nil
}

// singleUser runs one SQL statement with "postgres --single" on a stopped
// cluster; no network and no authentication are involved.
func singleUser(ctx context.Context, a *account, bins binaries, dataDir, workDir, sql string) error {
	cmd := a.command(ctx, workDir, bins.postgres, "--single", "-D", dataDir, "-c", "exit_on_error=on", "postgres")
	cmd.Stdin = strings.NewReader(sql + "\n")
	out, err := cmd.CombinedOutput()
	if err == nil && (strings.Contains(string(out), "ERROR:") || strings.Contains(string(out), "FATAL:")) {
		err = errors.New("statement failed")
	}
	if err != nil {
		return fmt.Errorf("postgres --single: %w%s", err, indent(tailLines(string(out), 20)))
	}
	return nil
}

// newPassword returns 32 random hexadecimal characters (safe in URLs and
// SQL literals).
func newPassword() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("generate password: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// readPassword reads a password file.
func readPassword(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("read password file: %w", err)
	}
	pw := strings.TrimSpace(string(b))
	if pw == "" {
		return "", fmt.Errorf("password file %s is empty", path)
	}
	return pw, nil
}
