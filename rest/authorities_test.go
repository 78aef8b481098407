package rest_test

import (
	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/nrs"
)

// testAuthorities is the registry the binary builds: NRS, with FIRS as an alias.
func testAuthorities() model.Authorities {
	n, err := nrs.New(nrs.Options{})
	if err != nil {
		panic(err)
	}
	return model.NewAuthorities([]model.Authority{n}, map[string]string{"FIRS": nrs.Code})
}
