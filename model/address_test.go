package model_test

import (
	"testing"

	"github.com/einvoice-ng/einvoice/model"
)

func TestAddressKey(t *testing.T) {
	for in, want := range map[string]string{
		"198.51.100.7":              "198.51.100.7",
		"::ffff:198.51.100.7":       "198.51.100.7",
		"2001:db8:1:2:aaaa::1":      "2001:db8:1:2::/64",
		"2001:db8:1:2:ffff:ffff::9": "2001:db8:1:2::/64",
		"fe80::1%eth0":              "fe80::/64",
		"::1":                       "::/64",
		"":                          "",
		"not an address":            "not an address",
	} {
		if got := model.AddressKey(in); got != want {
			t.Errorf("AddressKey(%q) = %q, want %q", in, got, want)
		}
	}
}
