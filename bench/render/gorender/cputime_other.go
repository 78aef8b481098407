//go:build !unix

package main

import "time"

// cpuTime is unknown here; the rate per CPU second is then left out.
func cpuTime() time.Duration { return 0 }
