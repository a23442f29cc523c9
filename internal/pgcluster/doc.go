// Package pgcluster runs a private PostgreSQL cluster from the system's
// PostgreSQL binaries, for towow when DATABASE_URL is not set and for tests.
//
// # Layout on disk
//
// For a data directory <dir> (towow uses $TOWOW_DATA_DIR/pg, by default
// ./.towow/pg) the package uses these paths, all next to each other:
//
//	<dir>           the cluster itself (initdb output), owned by the account
//	                the server runs as, mode 0700
//	<dir>.password  the generated password of the "towow" superuser, mode
//	                0600, owned by the invoking user
//	<dir>.lock      flock(2) lock taken for the whole check, init and start
//	                sequence (and for stops), so that concurrent processes
//	                and goroutines never race; the file is never removed
//	<dir>.users     empty file on which every open [Cluster] holds a shared
//	                flock(2) lock, from [Start] to [Cluster.Stop]; never
//	                removed
//	<dir>.detached  marker of a detached cluster ([Config.Detached], towow
//	                db start and towow db url), removed by [Stop] only
//	<dir>.log       the server log (pg_ctl -l); for ./.towow/pg this is
//	                ./.towow/pg.log, i.e. <dir>/../pg.log
//	<dir>.init/     scratch directory of an initdb in progress; the new
//	                cluster is renamed to <dir> only once it is complete
//
// The cluster has a superuser role "towow" (password authentication,
// scram-sha-256, on TCP), the databases "postgres" and "towow", encoding
// UTF8 and locale C. It listens only on 127.0.0.1, on a free port picked at
// each start (never 5432), with Unix-domain sockets disabled. fsync stays on.
//
// # Sharing and stopping
//
// [Start] initialises the cluster if <dir> holds none, then either starts a
// postmaster or, when one already runs in <dir>, attaches to it
// ([Cluster.Owned] tells which; it is informational only). Every Cluster
// that Start returns is a user of the server: it holds a shared flock(2)
// lock on <dir>.users, taken under <dir>.lock once the server runs. The
// lock belongs to its own open file description, so two Clusters of one
// process are two users, and the kernel releases the lock of a process
// that exits or is killed, even by SIGKILL.
//
// [Cluster.Stop] releases that lock and then, still under <dir>.lock,
// tries an exclusive lock on <dir>.users without waiting. If it gets it,
// no other user remains: it stops the postmaster running in <dir>, unless
// <dir>.detached exists. Otherwise it leaves the server running for the
// other users. So the last user out stops the server, whichever Cluster
// started it; a server whose users all died without Stop keeps running
// until a later user's Stop.
//
// A Start with [Config.Detached] creates <dir>.detached; while it exists no
// Cluster.Stop stops the server. A Start without Detached leaves the marker
// alone. [Stop] stops the server regardless of users and of the marker,
// and removes the marker (towow db stop, Makefile clean-up).
//
// When Start starts the postmaster and then fails, or ctx is cancelled
// (pg_ctl start itself runs to its end, bounded by its own timeout, and in
// a process group of its own, out of reach of a terminal's Ctrl-C), Start
// stops that server before returning; an interrupted Start returns an
// error wrapping ctx.Err().
//
// A postmaster.pid whose process is gone, or is not a postgres serving
// <dir> (pid reuse, detected through /proc/<pid>/cwd and /proc/<pid>/exe),
// is stale: Start removes it, under the lock, before starting the server.
//
// # Running as root
//
// PostgreSQL refuses to run as root. When the effective uid is 0 the server
// programs run as the owner of <dir> when that is a non-root user, and
// otherwise as the "postgres" system user; <dir> is chowned to that account.
// Every directory above <dir> must be traversable by that account; Start
// reports the first one that is not instead of changing its permissions.
// Directories Start creates itself get mode 0755.
package pgcluster
