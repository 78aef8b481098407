package codes

import (
	"embed"
	"fmt"
	"time"
)

// reference holds NRS's lists as NRS serves their data arrays, byte for
// byte (the indentation aside, see reference/SOURCES.md). A test checks them
// against the shared copy they were taken from.
//
//go:embed reference/*.json
var reference embed.FS

// SnapshotDate is the date the embedded lists were taken from NRS's
// published material (reference/SOURCES.md gives each list's own date).
const SnapshotDate = "2026-11-23"

// SourceSnapshot names the embedded lists in a Lists' Source.
const SourceSnapshot = "snapshot"

// Lists is one complete set of NRS's code lists, as validation uses them:
// every list compiled for lookups. It is immutable.
type Lists struct {
	lists  map[string]*List
	date   string
	source string
}

// List returns the list of a resource; nil when the resource is optional
// (hs-codes, invoice-quantity-codes) and was never refreshed from NRS.
func (l *Lists) List(name string) *List { return l.lists[name] }

// Date is the lists' date, YYYY-MM-DD: SnapshotDate for the snapshot, else
// the day the newest of them was fetched from NRS.
func (l *Lists) Date() string { return l.date }

// Source is SourceSnapshot, or the environment ("sandbox", "production")
// whose refreshed lists these are (lists NRS did not serve then keep the
// snapshot's).
func (l *Lists) Source() string { return l.source }

// Served is one list as NRS served it.
type Served struct {
	Name string
	// Data is the "data" array of NRS's answer, as served.
	Data []byte
	// FetchedAt is when einvoice fetched it.
	FetchedAt time.Time
}

// SnapshotJSON returns the embedded list of a resource exactly as stored
// (NRS's data array); false for a resource the snapshot lacks.
func SnapshotJSON(name string) ([]byte, bool) {
	if !KnownResource(name) {
		return nil, false
	}
	b, err := reference.ReadFile("reference/" + name + ".json")
	if err != nil {
		return nil, false
	}
	return b, true
}

// snapshot is parsed once, at package initialisation: the package-level
// lists below are its lists.
var snapshot = func() *Lists {
	l := &Lists{lists: map[string]*List{}, date: SnapshotDate, source: SourceSnapshot}
	for _, name := range ResourceNames() {
		b, ok := SnapshotJSON(name)
		if !ok {
			if resourceFields[name].optional {
				continue
			}
			panic("codes: the snapshot lacks " + name)
		}
		list, err := Parse(name, b)
		if err != nil {
			panic(err)
		}
		l.lists[name] = list
	}
	return l
}()

// Snapshot returns the embedded lists.
func Snapshot() *Lists { return snapshot }

// Compile builds the lists of source (an environment name) from lists NRS
// served: each served list replaces the snapshot's, the others stay. A list
// that cannot be parsed is an error and nothing is built.
func Compile(source string, served []Served) (*Lists, error) {
	if source == "" || source == SourceSnapshot {
		return nil, fmt.Errorf("codes: compiled lists need the name of their environment")
	}
	l := &Lists{lists: make(map[string]*List, len(snapshot.lists)+2), date: SnapshotDate, source: source}
	for name, list := range snapshot.lists {
		l.lists[name] = list
	}
	var newest time.Time
	for _, s := range served {
		list, err := Parse(s.Name, s.Data)
		if err != nil {
			return nil, err
		}
		l.lists[s.Name] = list
		if s.FetchedAt.After(newest) {
			newest = s.FetchedAt
		}
	}
	if !newest.IsZero() {
		l.date = newest.UTC().Format(time.DateOnly)
	}
	return l, nil
}

// The snapshot's lists, for lookups that need no environment (names on a
// rendered invoice, the sandbox stand-in).
var (
	InvoiceTypes  = snapshot.lists[ResourceInvoiceTypes]
	PaymentMeans  = snapshot.lists[ResourcePaymentMeans]
	TaxCategories = snapshot.lists[ResourceTaxCategories]
	Currencies    = snapshot.lists[ResourceCurrencies]
	Countries     = snapshot.lists[ResourceCountries]
	States        = snapshot.lists[ResourceStates]
	LGAs          = snapshot.lists[ResourceLGAs]
	ServicesCodes = snapshot.lists[ResourceServicesCodes]
	VATExemptions = snapshot.lists[ResourceVATExemptions]
)

// Resource returns the snapshot's list of a resource; false for hs-codes
// and invoice-quantity-codes, which the snapshot lacks.
func Resource(name string) (*List, bool) {
	l, ok := snapshot.lists[name]
	return l, ok
}
