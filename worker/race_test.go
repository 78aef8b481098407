//go:build race

package worker_test

// raceEnabled is set when the tests run under the race detector, which
// slows the in-process Temporal server about tenfold.
const raceEnabled = true
