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
//	<dir>.owner     "<owner pid> <owner start time> <postmaster pid>" of the
//	                process that started (or adopted) the running postmaster
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
// # Ownership
//
// [Start] initialises the cluster if <dir> holds none, then either starts a
// postmaster or, when one already runs in <dir>, attaches to it. The process
// that started the postmaster owns it and stops it in [Cluster.Stop]; a
// process that merely attached does not stop it ([Cluster.Stop] is then a
// no-op). When the postmaster still runs but its recorded owner is dead
// (for example it was SIGKILLed) or unrecorded, the next process that calls
// [Start] adopts the postmaster and becomes its owner. [Stop] stops the
// cluster regardless of ownership (towow db stop, Makefile clean-up).
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
