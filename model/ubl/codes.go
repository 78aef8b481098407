package ubl

import (
	"strings"

	"github.com/einvoice-ng/einvoice/model/nrs/codes"
)

// typeCode pairs a UNTDID 1001 document type code, as UBL writes it, with
// the NRS invoice type of the same name (NRS's invoice-types list numbers
// some of them differently: its 380 is "Credit Note", UNTDID's 380 is a
// commercial invoice). credit marks the types UBL writes as a CreditNote.
type typeCode struct {
	untdid, nrs string
	credit      bool
}

// typeCodes are the pairs einvoice converts, matched by name: UNTDID
// 1001's name on the left, NRS's (reference/invoice-types.json) on the
// right. NRS lists "Self Billed Invoice" twice (385 and 394); 385, the
// first, is the one written. A UNTDID code outside this table has no NRS
// invoice type of its name and is reported, never guessed.
var typeCodes = []typeCode{
	{untdid: "380", nrs: "381"},               // Commercial invoice ↔ Commercial Invoice
	{untdid: "381", nrs: "380", credit: true}, // Credit note ↔ Credit Note
	{untdid: "383", nrs: "384"},               // Debit note ↔ Debit Note
	{untdid: "389", nrs: "385"},               // Self-billed invoice ↔ Self Billed Invoice
	{untdid: "393", nrs: "386"},               // Factored invoice ↔ Factored Invoice
	{untdid: "261", nrs: "393", credit: true}, // Self billed credit note ↔ Self-billed Credit Note
	{untdid: "325", nrs: "390"},               // Proforma invoice ↔ Proforma Invoice
}

// nrsTypeOf is the NRS invoice type of a UNTDID code.
func nrsTypeOf(untdid string) (string, bool) {
	for _, t := range typeCodes {
		if t.untdid == untdid {
			return t.nrs, true
		}
	}
	return "", false
}

// untdidOf is the UNTDID code of an NRS invoice type, and whether UBL
// writes it as a CreditNote.
func untdidOf(nrsCode string) (code string, credit, ok bool) {
	if nrsCode == "394" { // NRS's second "Self-billed Invoice"
		nrsCode = "385"
	}
	for _, t := range typeCodes {
		if t.nrs == nrsCode {
			return t.untdid, t.credit, true
		}
	}
	return "", false, false
}

// TypeCodePairs lists the UNTDID 1001 ↔ NRS invoice type pairs, for
// documentation and tests.
func TypeCodePairs() [][2]string {
	out := make([][2]string, len(typeCodes))
	for i, t := range typeCodes {
		out[i] = [2]string{t.untdid, t.nrs}
	}
	return out
}

// taxCategory pairs a UNCL 5305 tax category code within a tax scheme
// with NRS's tax category.
type taxCategory struct {
	scheme, code, nrs string
}

// taxCategories are the VAT and GST categories of UNCL 5305 that NRS's
// tax-categories list names: standard rate (S), zero rated (Z), and the
// lower rate (AA) as NRS's "Reduced". UNCL 5305's exempt (E), outside the
// scope (O), reverse charge (AE), intra-community (K) and export (G)
// categories have no NRS category and are reported. Any other NRS
// category is written with its own code as both the category and the tax
// scheme, and read back so.
var taxCategories = []taxCategory{
	{"VAT", "S", "STANDARD_VAT"},
	{"VAT", "Z", "ZERO_VAT"},
	{"VAT", "AA", "REDUCED_VAT"},
	{"GST", "S", "STANDARD_GST"},
	{"GST", "Z", "ZERO_GST"},
	{"GST", "AA", "REDUCED_GST"},
}

func nrsTaxCategory(scheme, code string) (string, bool) {
	scheme, code = strings.ToUpper(scheme), strings.ToUpper(code)
	if scheme == "" {
		scheme = "VAT"
	}
	for _, t := range taxCategories {
		if t.scheme == scheme && t.code == code {
			return t.nrs, true
		}
	}
	if codes.Snapshot().List(codes.ResourceTaxCategories).Contains(code) {
		return code, true
	}
	return "", false
}

func ublTaxCategory(nrsCode string) (scheme, code string) {
	for _, t := range taxCategories {
		if t.nrs == nrsCode {
			return t.scheme, t.code
		}
	}
	return nrsCode, nrsCode
}

// stateCode is NRS's state code for what a UBL address says: a code of
// NRS's states list as it is, or a state's name (NRS's spelling, any
// case, with or without "State").
func stateCode(v string) (string, bool) {
	list := codes.Snapshot().List(codes.ResourceStates)
	if list.Contains(v) {
		return v, true
	}
	if list.Contains(strings.ToUpper(v)) {
		return strings.ToUpper(v), true
	}
	want := normName(v)
	for _, e := range list.Entries() {
		if normName(e.Value) == want {
			return e.Code, true
		}
	}
	return "", false
}

// lgaCode is NRS's LGA code for what a UBL address says: a code of NRS's
// LGA list, or an LGA's name within the state (NRS's spelling, any case).
func lgaCode(v, state string) (string, bool) {
	list := codes.Snapshot().List(codes.ResourceLGAs)
	if list.Contains(v) {
		return v, true
	}
	if list.Contains(strings.ToUpper(v)) {
		return strings.ToUpper(v), true
	}
	if state == "" {
		return "", false
	}
	want := normName(v)
	for _, e := range list.Entries() {
		if e.State == state && normName(e.Value) == want {
			return e.Code, true
		}
	}
	return "", false
}

func normName(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	for _, suffix := range []string{" state", " lga", " local government area", " local government"} {
		s = strings.TrimSuffix(s, suffix)
	}
	return strings.Join(strings.Fields(s), " ")
}
