//go:build !unix

package render_test

import "time"

// cpuTime is unknown here; the benchmark then reports no CPU rate.
func cpuTime() time.Duration { return 0 }
