package pgcluster

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// ErrNoBinaries is returned by [Start] when the PostgreSQL server programs
// (initdb, pg_ctl, postgres) cannot be found on PATH nor in
// /usr/lib/postgresql/*/bin.
var ErrNoBinaries = errors.New("PostgreSQL server binaries not found (initdb, pg_ctl, postgres): " +
	"install Debian's postgresql package (apt-get install postgresql) or set DATABASE_URL")

// binaries holds the absolute paths of the PostgreSQL server programs.
type binaries struct {
	dir      string // directory of initdb, where companion tools live too
	initdb   string
	pgCtl    string
	postgres string
}

// Search locations, variables so that tests can replace them.
var (
	searchPath = func() string { return os.Getenv("PATH") }
	libRoot    = "/usr/lib/postgresql"
)

var serverPrograms = []string{"initdb", "pg_ctl", "postgres"}

// findBinaries locates initdb, pg_ctl and postgres. A non-empty binDir is
// the only place looked at. Otherwise, when major names the version of an
// existing cluster, <libRoot>/<major>/bin is preferred, then PATH, then the
// newest <libRoot>/*/bin.
func findBinaries(binDir, major string) (binaries, error) {
	if binDir != "" {
		if b, ok := binariesIn(binDir); ok {
			return b, nil
		}
		return binaries{}, fmt.Errorf("%w (looked in %s)", ErrNoBinaries, binDir)
	}
	if major != "" {
		if b, ok := binariesIn(filepath.Join(libRoot, major, "bin")); ok {
			return b, nil
		}
	}
	if b, ok := binariesOnPath(searchPath()); ok {
		return b, nil
	}
	for _, dir := range libBinDirs() {
		if b, ok := binariesIn(dir); ok {
			return b, nil
		}
	}
	return binaries{}, ErrNoBinaries
}

// binariesIn returns the server programs of dir if it holds all of them.
func binariesIn(dir string) (binaries, bool) {
	paths := make([]string, len(serverPrograms))
	for i, name := range serverPrograms {
		p := filepath.Join(dir, name)
		if !isExecutable(p) {
			return binaries{}, false
		}
		paths[i] = p
	}
	return newBinaries(paths)
}

// binariesOnPath looks each server program up in the PATH-style list.
func binariesOnPath(path string) (binaries, bool) {
	paths := make([]string, len(serverPrograms))
	for i, name := range serverPrograms {
		for _, dir := range filepath.SplitList(path) {
			if dir == "" || !filepath.IsAbs(dir) {
				continue // never run programs relative to the working directory
			}
			if p := filepath.Join(dir, name); isExecutable(p) {
				paths[i] = p
				break
			}
		}
		if paths[i] == "" {
			return binaries{}, false
		}
	}
	return newBinaries(paths)
}

// newBinaries resolves symbolic links (Debian's /usr/local/bin style links
// point into /usr/lib/postgresql/N/bin) and builds a binaries value.
func newBinaries(paths []string) (binaries, bool) {
	for i, p := range paths {
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			return binaries{}, false
		}
		paths[i] = real
	}
	return binaries{dir: filepath.Dir(paths[0]), initdb: paths[0], pgCtl: paths[1], postgres: paths[2]}, true
}

// libBinDirs lists <libRoot>/*/bin, newest major version first.
func libBinDirs() []string {
	entries, err := os.ReadDir(libRoot)
	if err != nil {
		return nil
	}
	type version struct {
		name string
		num  []int
	}
	var versions []version
	for _, e := range entries {
		v := version{name: e.Name()}
		for _, part := range strings.Split(e.Name(), ".") {
			n, err := strconv.Atoi(part)
			if err != nil {
				v.num = nil
				break
			}
			v.num = append(v.num, n)
		}
		if v.num != nil {
			versions = append(versions, v)
		}
	}
	sort.Slice(versions, func(i, j int) bool {
		a, b := versions[i].num, versions[j].num
		for k := 0; k < len(a) && k < len(b); k++ {
			if a[k] != b[k] {
				return a[k] > b[k]
			}
		}
		return len(a) > len(b)
	})
	dirs := make([]string, len(versions))
	for i, v := range versions {
		dirs[i] = filepath.Join(libRoot, v.name, "bin")
	}
	return dirs
}

// isExecutable reports whether p is a regular file with an execute bit.
func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// clusterVersion returns the major version recorded in dataDir/PG_VERSION,
// or "" when dataDir holds no cluster.
func clusterVersion(dataDir string) (string, error) {
	b, err := os.ReadFile(filepath.Join(dataDir, "PG_VERSION"))
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read cluster version: %w", err)
	}
	return strings.TrimSpace(string(b)), nil
}

// Tool returns the path of a PostgreSQL client program (pg_dump,
// pg_restore) from the same installation as the cluster's server: the
// directory of its initdb, of the cluster's own major version.
func (c *Cluster) Tool(name string) (string, error) {
	major, _ := clusterVersion(c.layout.dataDir)
	bins, err := findBinaries(c.binDir, major)
	if err != nil {
		return "", err
	}
	p := filepath.Join(bins.dir, name)
	if !isExecutable(p) {
		return "", fmt.Errorf("%s not found next to the server's programs in %s (Debian installs it with postgresql)", name, bins.dir)
	}
	return p, nil
}

// ClientTool returns the path of a PostgreSQL client program for a server
// that is not the embedded cluster: the newest <libRoot>/*/bin first (a
// newer pg_dump reads older servers, not the reverse), then PATH.
func ClientTool(name string) (string, error) {
	for _, dir := range libBinDirs() {
		if p := filepath.Join(dir, name); isExecutable(p) {
			return p, nil
		}
	}
	for _, dir := range filepath.SplitList(searchPath()) {
		if dir != "" && filepath.IsAbs(dir) {
			if p := filepath.Join(dir, name); isExecutable(p) {
				return p, nil
			}
		}
	}
	return "", fmt.Errorf("%s not found in %s/*/bin or on PATH: install postgresql-client", name, libRoot)
}
