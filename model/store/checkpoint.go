package store

import (
	"context"
	"database/sql"
	"sync"
	"time"
)

// SQLite in WAL mode appends each commit to the write-ahead log
// (the database file's name with -wal) and copies the log's pages into the database file in
// checkpoints. By default a connection runs a checkpoint itself inside the
// COMMIT that takes the log past 1000 pages, so that one commit (and every
// request waiting for it) also pays for copying the pages and for two
// fsyncs, the log's and the database file's: on a loaded machine
// milliseconds to tens of milliseconds, several times a second under a
// steady stream of IRNs.
//
// The Store's connections therefore leave checkpoints to a checkpointer of
// their own, which runs on a connection outside the pool:
//
//   - every checkpointInterval, a PASSIVE checkpoint, which copies what
//     it can and waits for no reader or writer; the writers go on
//     meanwhile;
//   - when the log holds walRestartFrames pages or more and that PASSIVE
//     checkpoint copied all of them, a RESTART checkpoint, which copies
//     what was committed since and makes the next writer start the log
//     again from its beginning, so that the file stops growing (a PASSIVE
//     checkpoint alone rarely allows that under a steady stream of
//     writes: the log must be copied whole when a writer begins). It
//     holds the IRN writer meanwhile (a batch waits on a mutex rather
//     than in SQLite's busy handler, which sleeps) and waits for other
//     writers and readers at most checkpointBusyTimeout; when it cannot
//     finish, the next round tries again;
//   - as a bound should the checkpointer fall behind or be held off, the
//     pool's connections still checkpoint themselves, but only once the
//     log reaches walAutoCheckpointFrames pages.
//
// The log file keeps the size it reached (SQLite overwrites it from its
// beginning after a restart): about walRestartFrames pages plus what is
// written during one round, walAutoCheckpointFrames pages at most while
// readers do not pin it. The last connection to close checkpoints the log
// and deletes it.
//
// Durability is SQLite's for WAL with synchronous=NORMAL: a commit is
// written to the log without an fsync, so it survives the process crashing
// but may roll back on a power loss or an operating-system crash until the
// log has been synced. Every checkpoint that copies anything first syncs
// the log, and the checkpointer runs one within checkpointInterval of any
// commit, unless a read that began before the commit and is still open
// holds it back. The database stays consistent either way.
const (
	// walRestartFrames is the log size, in pages, at which a round
	// restarts the log (16 MiB of 4 KiB pages).
	walRestartFrames = 4096
	// walAutoCheckpointFrames is the log size, in pages, at which a
	// connection checkpoints inside its own commit (64 MiB of 4 KiB pages).
	walAutoCheckpointFrames = 16384
	// checkpointInterval is the longest time between two rounds.
	checkpointInterval = 100 * time.Millisecond
	// checkpointBusyTimeout bounds how long a RESTART checkpoint waits for
	// another writer or for readers of the log, holding writers off.
	checkpointBusyTimeout = 20 * time.Millisecond
)

// walLimits are the limits Open applies: walRestartFrames and
// walAutoCheckpointFrames, and whether the checkpointer runs (tests change
// them).
var walLimits = struct {
	restart, auto int
	checkpointer  bool
}{walRestartFrames, walAutoCheckpointFrames, true}

// checkpointer runs the checkpoints of one SQLite database on a connection
// of its own (see above).
type checkpointer struct {
	db      *sql.DB
	writer  *irnWriter
	restart int // walRestartFrames, or a test's value
	round   chan chan checkpointStats
	stop    chan struct{}
	done    chan struct{}
	once    sync.Once

	stats checkpointStats // owned by the loop
}

// checkpointStats counts what a checkpointer did.
type checkpointStats struct {
	// Passive and Restart count the checkpoints run of each kind; Busy
	// counts the RESTART checkpoints that could not finish (another
	// writer, or readers of the log) and were left to the next round.
	Passive, Restart, Busy int
	// Log and Checkpointed are the log's pages and how many of them are in
	// the database file, after the last checkpoint.
	Log, Checkpointed int
}

// startCheckpointer opens a connection to the SQLite database at dsn and
// starts checkpointing it.
func startCheckpointer(dsn string, w *irnWriter, restart int) (*checkpointer, error) {
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxIdleTime(0)
	if err := db.Ping(); err != nil {
		_ = db.Close()
		return nil, err
	}
	c := &checkpointer{
		db: db, writer: w, restart: restart,
		round: make(chan chan checkpointStats),
		stop:  make(chan struct{}),
		done:  make(chan struct{}),
	}
	go c.loop()
	return c, nil
}

func (c *checkpointer) loop() {
	defer close(c.done)
	t := time.NewTicker(checkpointInterval)
	defer t.Stop()
	for {
		select {
		case <-c.stop:
			return
		case reply := <-c.round:
			c.run()
			reply <- c.stats
		case <-t.C:
			c.run()
		}
	}
}

// run is one round: a PASSIVE checkpoint, and a RESTART one when the log
// is at walRestartFrames pages or more. Errors (a busy database, a closed
// file) are left to the next round: the pool's own checkpoints bound the
// log meanwhile.
func (c *checkpointer) run() {
	ctx := context.Background()
	busy, log, done, err := c.checkpoint(ctx, "PASSIVE")
	if err != nil {
		return
	}
	c.stats.Passive++
	c.stats.Log, c.stats.Checkpointed = log, done
	if busy != 0 || log < c.restart || done < log {
		// Below the limit, or a reader still needs pages of the log that
		// are not in the database file yet: a RESTART would hold the
		// writers off while waiting for it.
		return
	}
	// The IRN writer waits on its mutex meanwhile instead of sleeping in
	// SQLite's busy handler.
	c.writer.mu.Lock()
	busy, log, done, err = c.checkpoint(ctx, "RESTART")
	c.writer.mu.Unlock()
	if err != nil {
		return
	}
	c.stats.Restart++
	if busy != 0 {
		c.stats.Busy++
	}
	c.stats.Log, c.stats.Checkpointed = log, done
}

// checkpoint runs PRAGMA wal_checkpoint(mode) and returns its row: whether
// it was kept from finishing, the log's pages and those checkpointed.
func (c *checkpointer) checkpoint(ctx context.Context, mode string) (busy, log, done int, err error) {
	err = c.db.QueryRowContext(ctx, "PRAGMA wal_checkpoint("+mode+")").Scan(&busy, &log, &done)
	return busy, log, done, err
}

// now runs a round at once and returns the counts so far; false when the
// checkpointer has stopped.
func (c *checkpointer) now() (checkpointStats, bool) {
	reply := make(chan checkpointStats, 1)
	select {
	case c.round <- reply:
		return <-reply, true
	case <-c.done:
		return checkpointStats{}, false
	}
}

// close stops the loop, waits for it and closes the connection.
func (c *checkpointer) close() {
	c.once.Do(func() {
		close(c.stop)
		<-c.done
		_ = c.db.Close()
	})
}
