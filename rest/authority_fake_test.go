package rest_test

import "github.com/einvoice-ng/einvoice/model"

// fakeNRS stands in for the NRS rules where a test only needs the registry
// to know the code.
type fakeNRS struct{ model.Authority }

func (fakeNRS) Code() string { return "NRS" }

func testAuthorities() model.Authorities {
	return model.NewAuthorities([]model.Authority{fakeNRS{}}, map[string]string{"FIRS": "NRS"})
}
