package main

// The layout of the module, as one allow table: every package of the
// module belongs to one room, and a room lists everything its packages may
// import: other rooms (by name) and third-party modules (by module path; a
// path also covers the modules nested beneath it). The standard library is
// allowed everywhere except where a room denies part of it. A package the
// table does not name, an import of a room or module its room does not
// list, and a line of the table that names no package all fail the check.
//
// docs/architecture.md draws this table; change both together.

// Base sets shared by several rooms.
var (
	// leaves are the pure packages any room above model may use: the
	// authority's rules, rendering, QR images, sealing, the egress policy,
	// UBL and spreadsheets. They know nothing of the database or the
	// application.
	leaves = []string{"model/nrs", "model/render", "model/qrcode", "model/secret", "model/egress", "model/ubl", "model/sheets"}

	// nounBase is what every application package (model/<noun>) may use:
	// the domain, the shared packages beneath the nouns, the store and the
	// leaves.
	nounBase = join([]string{"model", "model/access", "model/authority", "model/store",
		"github.com/google/uuid", "golang.org/x/sync"}, leaves)

	// nouns are the application's packages, one per noun.
	nouns = []string{"model/audit", "model/auth", "model/codelists", "model/events", "model/formats",
		"model/idempotency", "model/inbox", "model/invoices", "model/keys", "model/nrshealth", "model/portal",
		"model/runs", "model/submissions", "model/usage", "model/webhooks"}

	// transports are rest and graph: they call model/app and read the
	// nouns' view types, never the store, bun, Temporal or the workflows.
	transportBase = join([]string{"model", "model/app", "github.com/google/uuid"}, nouns, leaves)
)

// rooms is the table. Packages are module-relative; "x/..." is x and every
// package beneath it.
var rooms = []Room{
	// The root: domain types, the one Error, validation.
	{Name: "model", Packages: []string{"model"},
		May: []string{"github.com/google/uuid", "github.com/uptrace/bun"}},

	// Pure leaves.
	{Name: "model/nrs", Packages: []string{"model/nrs", "model/nrs/codes"},
		May: []string{"model", "github.com/santhosh-tekuri/jsonschema", "github.com/shopspring/decimal"}},
	{Name: "model/render", Packages: []string{"model/render", "model/render/pdfa"},
		May: []string{"model", "model/nrs", "model/qrcode", "github.com/jung-kurt/gofpdf", "github.com/shopspring/decimal"}},
	{Name: "model/qrcode", Packages: []string{"model/qrcode"},
		May: []string{"github.com/makiuchi-d/gozxing", "github.com/skip2/go-qrcode", "rsc.io/qr"}},
	{Name: "model/secret", Packages: []string{"model/secret"}, May: []string{"golang.org/x/crypto"}},
	{Name: "model/egress", Packages: []string{"model/egress"}},
	{Name: "model/ubl", Packages: []string{"model/ubl"},
		May: []string{"model", "model/nrs", "github.com/shopspring/decimal"}},
	{Name: "model/sheets", Packages: []string{"model/sheets"},
		May: []string{"model", "github.com/shopspring/decimal", "github.com/xuri/excelize"}},

	// The database and the shared packages beneath the nouns.
	{Name: "model/store", Packages: []string{"model/store"},
		May: []string{"model", "migrations", "model/store/dbopen", "github.com/google/uuid", "github.com/jackc/pgx",
			"github.com/uptrace/bun", "modernc.org/sqlite"}},
	// How einvoice opens a database (drivers, SQLite's file rules and
	// pragmas), shared by the store and the stand-in's tables.
	{Name: "model/store/dbopen", Packages: []string{"model/store/dbopen"},
		May: []string{"migrations", "github.com/jackc/pgx", "github.com/uptrace/bun", "modernc.org/sqlite"}},
	{Name: "model/access", Packages: []string{"model/access"},
		May: []string{"model", "model/store", "github.com/google/uuid"}},
	{Name: "model/authority", Packages: []string{"model/authority"},
		May: []string{"model", "model/store", "model/nrs", "model/secret", "model/egress", "github.com/google/uuid"}},
	{Name: "migrations", Packages: []string{"migrations"}, May: []string{"github.com/uptrace/bun"}},

	// The application: one package per noun. Sideways arrows between
	// nouns are the only ones named here, one by one.
	{Name: "model/audit", Packages: []string{"model/audit"}, May: nounBase},
	{Name: "model/auth", Packages: []string{"model/auth"},
		May: join(nounBase, []string{"model/portal", "github.com/golang-jwt/jwt"})},
	{Name: "model/codelists", Packages: []string{"model/codelists"}, May: nounBase},
	{Name: "model/events", Packages: []string{"model/events"}, May: nounBase},
	{Name: "model/formats", Packages: []string{"model/formats"},
		May: join(nounBase, []string{"model/invoices", "model/submissions", "github.com/shopspring/decimal"})},
	{Name: "model/idempotency", Packages: []string{"model/idempotency"}, May: nounBase},
	{Name: "model/invoices", Packages: []string{"model/invoices"}, May: nounBase},
	{Name: "model/keys", Packages: []string{"model/keys"}, May: join(nounBase, []string{"model/events"})},
	{Name: "model/nrshealth", Packages: []string{"model/nrshealth"}, May: nounBase},
	{Name: "model/portal", Packages: []string{"model/portal"}, May: nounBase},
	{Name: "model/runs", Packages: []string{"model/runs"},
		May: join(nounBase, []string{"model/invoices", "model/codelists", "model/events"})},
	{Name: "model/submissions", Packages: []string{"model/submissions"},
		May: join(nounBase, []string{"model/invoices", "model/events"})},
	{Name: "model/inbox", Packages: []string{"model/inbox"}, May: join(nounBase, []string{"model/events"})},
	{Name: "model/usage", Packages: []string{"model/usage"}, May: nounBase},
	{Name: "model/webhooks", Packages: []string{"model/webhooks"}, May: join(nounBase, []string{"model/events"})},

	// The NRS adapter: the client of NRS's API and the submissions.Gateway
	// it implements (the seam declared by model/submissions). It knows the
	// submissions' and the authority settings' types, never the store.
	{Name: "model/mbs", Packages: []string{"model/mbs"},
		May: []string{"model", "model/authority", "model/egress", "model/nrs", "model/submissions",
			"github.com/prometheus/client_golang"}},

	// One Config, one App: the application wired.
	{Name: "model/app", Packages: []string{"model/app"},
		May: join([]string{"model", "model/access", "model/authority", "model/store"}, nouns, leaves)},

	// The transports.
	{Name: "rest", Packages: []string{"rest"},
		May: join(transportBase, []string{"graph/portal", "github.com/go-chi/chi", "github.com/go-json-experiment/json",
			"github.com/go-redis/redis_rate", "github.com/redis/go-redis", "github.com/prometheus/client_golang",
			"go.yaml.in/yaml", "golang.org/x/time", "github.com/hashicorp/golang-lru"})},
	{Name: "graph", Packages: []string{"graph", "graph/gqlmodel"},
		May: join(transportBase, []string{"graph/portal", "github.com/99designs/gqlgen", "github.com/coder/websocket",
			"github.com/graph-gophers/dataloader", "github.com/vektah/gqlparser"})},
	{Name: "graph/portal", Packages: []string{"graph/portal"}},
	// The Go SDK (rest/client) is a module of its own; its generator reads
	// the served OpenAPI document from rest.
	{Name: "rest/sdkgen", Packages: []string{"rest/internal/sdkgen"}, May: []string{"rest"}},

	// The NRS sandbox stand-in: a service of its own, over model/nrs and
	// its own tables, never the application.
	{Name: "rest/nrssandbox", Packages: []string{"rest/nrssandbox"},
		May: []string{"model", "model/nrs", "model/secret", "rest/nrssandbox/sandboxdb", "github.com/go-chi/chi",
			"github.com/google/uuid", "golang.org/x/time"}},
	// Its tables open with the store's rules (model/store/dbopen): the one
	// arrow from the stand-in into the application's rooms.
	{Name: "rest/nrssandbox/sandboxdb", Packages: []string{"rest/nrssandbox/sandboxdb"},
		May: []string{"migrations", "model/store/dbopen", "github.com/jackc/pgx", "github.com/uptrace/bun", "modernc.org/sqlite"}},

	// Temporal: the workflows reach the database only through the nouns'
	// entry points (runs.Steps, submissions.Steps, webhooks.Deliveries);
	// the NRS client beneath them knows no more than NRS's API.
	{Name: "workflows", Packages: []string{"workflows"},
		May: []string{"model", "model/authority", "model/codelists", "model/invoices", "model/runs",
			"model/submissions", "model/inbox", "model/webhooks", "model/nrs", "model/egress", "model/secret", "model/mbs",
			"github.com/google/uuid", "go.temporal.io/api", "go.temporal.io/sdk", "google.golang.org/protobuf"}},
	{Name: "worker", Packages: []string{"worker"}, DenyStd: []string{"net/http"},
		May: []string{"model", "model/authority", "model/egress", "model/inbox", "model/runs", "model/submissions", "model/webhooks",
			"workflows", "model/mbs", "github.com/prometheus/client_golang", "github.com/uber-go/tally",
			"go.temporal.io/sdk"}},
	{Name: "worker/devtemporal", Packages: []string{"worker/devtemporal"},
		May: []string{"github.com/labstack/echo", "github.com/temporalio/ui-server", "go.temporal.io/api",
			"go.temporal.io/sdk", "go.temporal.io/server", "google.golang.org/grpc"}},

	// The binaries: the composition root wires every room.
	{Name: "cmd/einvoice", Packages: []string{"cmd/einvoice"},
		May: []string{"graph", "graph/portal", "model", "model/app", "model/auth", "model/authority", "model/egress",
			"model/idempotency", "model/inbox", "model/nrs", "model/nrshealth", "model/portal", "model/runs", "model/secret",
			"model/store", "model/submissions", "model/webhooks", "rest", "rest/nrssandbox",
			"rest/nrssandbox/sandboxdb", "worker", "worker/devtemporal", "workflows", "model/mbs",
			"github.com/go-chi/chi", "github.com/google/uuid", "github.com/prometheus/client_golang",
			"github.com/redis/go-redis", "go.temporal.io/sdk", "golang.org/x/sync"}},
	{Name: "cmd/einvoice-temporal", Packages: []string{"cmd/einvoice-temporal"}, May: []string{"worker/devtemporal"}},

	// Test support: imported by tests only, wiring rooms together on
	// purpose. No package outside tests may import them (no room lists
	// them).
	{Name: "test support", Packages: []string{"model/app/apptest", "model/store/storetest", "model/ubl/ubltest",
		"rest/nrssandbox/sandboxdb/sandboxdbtest", "worker/temporaltest", "workflows/certtest"},
		May: []string{"model", "model/...", "rest", "rest/nrssandbox", "rest/nrssandbox/sandboxdb",
			"test support", "workflows", "github.com/google/uuid", "github.com/jackc/pgx", "go.temporal.io/api",
			"go.temporal.io/sdk"}},

	// Measurements and load generators: programs of their own, driving
	// the service from outside or its packages directly.
	{Name: "bench", Packages: []string{"bench/..."},
		May: []string{"bench", "model", "model/...", "rest", "workflows", "github.com/jackc/pgx",
			"github.com/go-chi/chi", "github.com/coder/websocket"}},
}

func join(sets ...[]string) []string {
	var out []string
	for _, s := range sets {
		out = append(out, s...)
	}
	return out
}
