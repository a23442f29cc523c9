package pgcluster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// lockPollInterval is how often a busy lock is retried.
const lockPollInterval = 20 * time.Millisecond

// acquireLock takes an exclusive flock(2) on path, creating the file if
// needed, and waits for it while ctx allows. Each call opens its own file
// description, so the lock also excludes goroutines of the same process.
// The descriptor is close-on-exec: the postmaster never inherits the lock.
func acquireLock(ctx context.Context, path string) (release func(), err error) {
	f, err := lockFile(ctx, path, syscall.LOCK_EX)
	if err != nil {
		return nil, err
	}
	return func() { unlockFile(f) }, nil
}

// lockFile opens path (creating it if needed) with a file description of
// its own and takes a flock(2) of kind how (LOCK_SH or LOCK_EX) on it,
// waiting while ctx allows. The lock lasts until [unlockFile], or until the
// process ends however it ends: the kernel drops a dead process's locks.
// The descriptor is close-on-exec, so no child process inherits the lock.
func lockFile(ctx context.Context, path string, how int) (*os.File, error) {
	for {
		f, ok, err := tryLockFile(path, how)
		if err != nil || ok {
			return f, err
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("wait for lock %s: %w", path, ctx.Err())
		case <-time.After(lockPollInterval):
		}
	}
}

// tryLockFile is lockFile without waiting: ok is false (and the file is
// closed) when a conflicting lock is held elsewhere.
func tryLockFile(path string, how int) (f *os.File, ok bool, err error) {
	f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, false, fmt.Errorf("open lock file: %w", err)
	}
	for {
		err = syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	switch {
	case err == nil:
		return f, true, nil
	case errors.Is(err, syscall.EWOULDBLOCK):
		_ = f.Close()
		return nil, false, nil
	default:
		_ = f.Close()
		return nil, false, fmt.Errorf("lock %s: %w", path, err)
	}
}

// unlockFile releases a lock taken by lockFile or tryLockFile.
func unlockFile(f *os.File) {
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	_ = f.Close()
}
