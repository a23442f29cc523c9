package pgcluster

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// unprivilegedUser is the account the server runs as when towow runs as
// root and the data directory does not already belong to a non-root user.
var unprivilegedUser = "postgres"

// account is the operating-system account the PostgreSQL programs run as.
type account struct {
	name   string
	uid    int
	gid    int
	groups []int               // supplementary groups, for permission checks
	cred   *syscall.Credential // nil: run as ourselves (not root)
}

// serverAccount picks the account for the cluster in dataDir: ourselves
// when not root; as root, the owner of an existing dataDir if that is not
// root, else the unprivileged system user.
func serverAccount(dataDir string) (*account, error) {
	if os.Geteuid() != 0 {
		name := strconv.Itoa(os.Geteuid())
		if u, err := user.Current(); err == nil {
			name = u.Username
		}
		return &account{name: name, uid: os.Geteuid(), gid: os.Getegid()}, nil
	}
	if fi, err := os.Stat(dataDir); err == nil {
		if st, ok := fi.Sys().(*syscall.Stat_t); ok && st.Uid != 0 {
			return accountForID(int(st.Uid), int(st.Gid)), nil
		}
	}
	u, err := user.Lookup(unprivilegedUser)
	if err != nil {
		return nil, fmt.Errorf("running as root, PostgreSQL must run as an unprivileged user but there is no %q user "+
			"(installing Debian's postgresql package creates it), or run towow as a non-root user: %w", unprivilegedUser, err)
	}
	uid, errU := strconv.Atoi(u.Uid)
	gid, errG := strconv.Atoi(u.Gid)
	if errU != nil || errG != nil || uid == 0 {
		return nil, fmt.Errorf("user %q (uid %s) cannot run PostgreSQL", u.Username, u.Uid)
	}
	return newAccount(u.Username, uid, gid, u), nil
}

// accountForID builds a root-switched account for a uid found on disk.
func accountForID(uid, gid int) *account {
	u, err := user.LookupId(strconv.Itoa(uid))
	if err != nil {
		return newAccount("uid "+strconv.Itoa(uid), uid, gid, nil)
	}
	return newAccount(u.Username, uid, gid, u)
}

func newAccount(name string, uid, gid int, u *user.User) *account {
	a := &account{name: name, uid: uid, gid: gid}
	if u != nil {
		if ids, err := u.GroupIds(); err == nil {
			for _, id := range ids {
				if n, err := strconv.Atoi(id); err == nil && n != gid {
					a.groups = append(a.groups, n)
				}
			}
		}
	}
	groups := make([]uint32, len(a.groups))
	for i, g := range a.groups {
		groups[i] = uint32(g)
	}
	a.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), Groups: groups}
	return a
}

// command prepares a program run as the account, in dir (also its HOME),
// with a minimal environment: PATH, HOME, LC_ALL=C, LANG=C and TZ if set.
func (a *account) command(ctx context.Context, dir, program string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, program, args...)
	cmd.Dir = dir
	path := os.Getenv("PATH")
	if path == "" {
		path = "/usr/local/bin:/usr/bin:/bin"
	}
	cmd.Env = []string{"PATH=" + path, "HOME=" + dir, "LC_ALL=C", "LANG=C"}
	if tz, ok := os.LookupEnv("TZ"); ok {
		cmd.Env = append(cmd.Env, "TZ="+tz)
	}
	if a.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: a.cred}
	}
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// run runs cmd and, on failure, returns an error with the tail of its output.
func run(cmd *exec.Cmd) error {
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s: %w%s", filepath.Base(cmd.Path), err, indent(tailLines(string(out), 20)))
	}
	return nil
}

// chown gives path to the account (only when switching users).
func (a *account) chown(path string) error {
	if a.cred == nil {
		return nil
	}
	if err := os.Lchown(path, a.uid, a.gid); err != nil {
		return fmt.Errorf("chown %s to %s: %w", path, a.name, err)
	}
	return nil
}

// chownTree gives dir and everything below it to the account, unless dir
// already belongs to it.
func (a *account) chownTree(dir string) error {
	if a.cred == nil {
		return nil
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("stat data directory: %w", err)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) == a.uid && int(st.Gid) == a.gid {
		return nil
	}
	return filepath.WalkDir(dir, func(p string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return a.chown(p)
	})
}

// checkTraversable verifies that the account may traverse dir and all its
// ancestors, reporting the outermost one it may not. Permissions are never
// changed here.
func (a *account) checkTraversable(dir string) error {
	if a.cred == nil {
		return nil
	}
	var chain []string
	for d := dir; ; d = filepath.Dir(d) {
		chain = append(chain, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	for i := len(chain) - 1; i >= 0; i-- {
		d := chain[i]
		fi, err := os.Stat(d)
		if err != nil {
			return fmt.Errorf("check access to %s: %w", d, err)
		}
		st, ok := fi.Sys().(*syscall.Stat_t)
		if !ok || a.canSearch(st) {
			continue
		}
		return fmt.Errorf("directory %s is not traversable by user %s (uid %d), which PostgreSQL runs as because towow runs as root: "+
			"allow it (chmod o+x %s) or use a data directory elsewhere (TOWOW_DATA_DIR)", d, a.name, a.uid, d)
	}
	return nil
}

// canSearch applies the classic owner/group/other execute-bit rules.
func (a *account) canSearch(st *syscall.Stat_t) bool {
	switch {
	case int(st.Uid) == a.uid:
		return st.Mode&0o100 != 0
	case a.inGroup(int(st.Gid)):
		return st.Mode&0o010 != 0
	default:
		return st.Mode&0o001 != 0
	}
}

func (a *account) inGroup(gid int) bool {
	if gid == a.gid {
		return true
	}
	for _, g := range a.groups {
		if g == gid {
			return true
		}
	}
	return false
}

// makeDirs creates dir and its missing parents with mode 0755 (chmod'ed so
// that a restrictive umask does not lock the server account out).
func makeDirs(dir string) error {
	var missing []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil {
			break
		} else if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("stat %s: %w", d, err)
		}
		missing = append(missing, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	for i := len(missing) - 1; i >= 0; i-- {
		d := missing[i]
		if err := os.Mkdir(d, 0o755); err != nil {
			if errors.Is(err, fs.ErrExist) {
				continue // created concurrently
			}
			return fmt.Errorf("create directory: %w", err)
		}
		if err := os.Chmod(d, 0o755); err != nil {
			return fmt.Errorf("chmod directory: %w", err)
		}
	}
	return nil
}

// tailLines returns the last n non-empty-trailing lines of s.
func tailLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// indent formats command output for inclusion below an error line.
func indent(s string) string {
	if strings.TrimSpace(s) == "" {
		return ""
	}
	return "\n\t" + strings.ReplaceAll(s, "\n", "\n\t")
}
