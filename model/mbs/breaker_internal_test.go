package mbs

import "testing"

// BenchmarkBreakerAllow is the cost a closed breaker and the pace check add
// to one NRS call.
func BenchmarkBreakerAllow(b *testing.B) {
	br := NewBreakers(BreakerOptions{})
	creds := credsKey("https://nrs.example", "key")
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if br.paceWait("production", creds, OpSignInvoice) > 0 {
				b.Fatal("paced")
			}
			release, _, ok := br.allow("production", OpSignInvoice)
			if !ok {
				b.Fatal("open")
			}
			release(outcomeAnswered)
		}
	})
}
