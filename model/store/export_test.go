package store

// CheckpointStats is checkpointStats, for the tests.
type CheckpointStats = checkpointStats

// SetWALLimits makes the Stores opened next restart the SQLite log from
// restart pages, checkpoint in their own commits from auto pages (0:
// never), and run a checkpointer or not; the returned function restores
// the defaults.
func SetWALLimits(restart, auto int, checkpointer bool) (restore func()) {
	old := walLimits
	walLimits.restart, walLimits.auto, walLimits.checkpointer = restart, auto, checkpointer
	return func() { walLimits = old }
}

// CheckpointNow runs one round of st's checkpointer and returns its counts
// so far; false when st has none or it has stopped.
func CheckpointNow(st *Store) (CheckpointStats, bool) {
	c := st.stmts.checkpointer
	if c == nil {
		return CheckpointStats{}, false
	}
	return c.now()
}
