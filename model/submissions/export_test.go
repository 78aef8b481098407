package submissions

// OnGroupCommit sets the function told the size of every shared
// transaction of a Group that committed (nil: none).
func OnGroupCommit(f func(n int)) { groupCommitted = f }
