package devtemporal

import (
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"time"

	"go.temporal.io/server/common/cluster"
	"go.temporal.io/server/common/config"
	"go.temporal.io/server/common/dynamicconfig"
	"go.temporal.io/server/common/membership/static"
	sqliteplugin "go.temporal.io/server/common/persistence/sql/sqlplugin/sqlite"
	"go.temporal.io/server/common/primitives"
	sqliteschema "go.temporal.io/server/schema/sqlite"
	"go.temporal.io/server/temporal"
)

const (
	// dbFile is the name, inside Options.DataDir, of the SQLite database that
	// holds both the default (history) and the visibility store.
	dbFile = "temporal.db"
	// clusterName names the single local cluster. It is written into the
	// database and into every namespace record, so it must never change.
	clusterName = "active"
	// storeName is the key of the SQLite data store in the persistence config.
	storeName = "sqlite-default"
)

// servicePorts are the gRPC ports of the Temporal services run in-process.
type servicePorts struct {
	frontendHost string // bind IP of the public frontend
	frontend     int    // public gRPC frontend
	frontendHTTP int    // HTTP API of the frontend, also used for Nexus callbacks
	history      int
	matching     int
	worker       int
}

// frontendDialAddr is the address local clients use to reach the frontend.
func (p servicePorts) frontendDialAddr() string {
	return net.JoinHostPort(dialHost(p.frontendHost), strconv.Itoa(p.frontend))
}

func (p servicePorts) frontendHTTPDialAddr() string {
	return net.JoinHostPort(dialHost(p.frontendHost), strconv.Itoa(p.frontendHTTP))
}

// sqlConfig returns the SQLite store configuration for the database file at
// path. "rwc" opens the file read-write and creates it when missing. The
// write-ahead log with synchronous=normal commits without an fsync per
// transaction (the log is synced at checkpoints): a process crash loses
// nothing, a power cut may lose the last transactions but never corrupts
// the file. With the default rollback journal every workflow and activity
// transition waited on several fsyncs, which made a certification run's
// dozens of transitions slow and a hundred concurrent runs slower still.
func sqlConfig(path string) *config.SQL {
	return &config.SQL{
		PluginName:   sqliteplugin.PluginName,
		DatabaseName: path,
		ConnectAttributes: map[string]string{
			"mode":         "rwc",
			"journal_mode": "wal",
			"synchronous":  "normal",
		},
	}
}

// ownerOnly sets the database file and its journal, WAL and shared-memory
// files (those that exist) to 0600; SQLite creates the ones to come with
// the database file's permissions.
func ownerOnly(path string) error {
	for _, p := range []string{path, path + "-journal", path + "-wal", path + "-shm"} {
		if err := os.Chmod(p, 0o600); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("restrict %s: %w", p, err)
		}
	}
	return nil
}

// prepareDatabase creates the schema when the database file is new and
// registers namespace when it is missing. A namespace that already exists is
// left untouched.
func prepareDatabase(sql *config.SQL, namespace string) error {
	if _, err := os.Stat(sql.DatabaseName); errors.Is(err, os.ErrNotExist) {
		if err := sqliteschema.SetupSchema(sql); err != nil {
			// Do not leave a half-initialised file behind: the next Start
			// would take it for a complete database.
			_ = os.Remove(sql.DatabaseName)
			return fmt.Errorf("create temporal schema in %s: %w", sql.DatabaseName, err)
		}
	} else if err != nil {
		return fmt.Errorf("inspect %s: %w", sql.DatabaseName, err)
	}
	ns, err := sqliteschema.NewNamespaceConfig(clusterName, namespace, false, nil)
	if err != nil {
		return fmt.Errorf("namespace %q: %w", namespace, err)
	}
	if err := sqliteschema.CreateNamespaces(sql, ns); err != nil {
		return fmt.Errorf("register namespace %q: %w", namespace, err)
	}
	return nil
}

// serverConfig builds the static configuration of a single-host dev cluster
// that keeps all of its state in the SQLite database described by sql.
func serverConfig(p servicePorts, sql *config.SQL) *config.Config {
	frontend := p.frontendDialAddr()

	var c config.Config
	c.Global.Membership.MaxJoinDuration = 30 * time.Second
	c.Global.Membership.BroadcastAddress = loopback
	// c.Global.Metrics stays nil: the server then uses a no-op metrics
	// handler and opens no metrics port. c.Global.PProf.Port stays 0: no
	// pprof listener.

	c.Persistence = config.Persistence{
		DefaultStore:     storeName,
		VisibilityStore:  storeName,
		NumHistoryShards: 1,
		DataStores:       map[string]config.DataStore{storeName: {SQL: sql}},
	}
	c.ClusterMetadata = &cluster.Config{
		EnableGlobalNamespace:    false,
		FailoverVersionIncrement: 10,
		MasterClusterName:        clusterName,
		CurrentClusterName:       clusterName,
		ClusterInformation: map[string]cluster.ClusterInformation{
			clusterName: {
				Enabled:                true,
				InitialFailoverVersion: 1,
				RPCAddress:             frontend,
				HTTPAddress:            p.frontendHTTPDialAddr(),
			},
		},
	}
	c.DCRedirectionPolicy.Policy = "noop"

	internal := func(port int) config.Service {
		return config.Service{RPC: config.RPC{GRPCPort: port, BindOnIP: loopback}}
	}
	c.Services = map[string]config.Service{
		string(primitives.FrontendService): {RPC: config.RPC{
			GRPCPort: p.frontend,
			HTTPPort: p.frontendHTTP,
			BindOnIP: p.frontendHost,
		}},
		string(primitives.HistoryService):  internal(p.history),
		string(primitives.MatchingService): internal(p.matching),
		string(primitives.WorkerService):   internal(p.worker),
	}

	c.Archival.History.State = "disabled"
	c.Archival.Visibility.State = "disabled"
	c.NamespaceDefaults.Archival.History.State = "disabled"
	c.NamespaceDefaults.Archival.Visibility.State = "disabled"

	// The worker service (system workflows) reaches the frontend here.
	c.PublicClient.HostPort = frontend
	return &c
}

// staticHosts tells every service where the others are. With static hosts
// the server runs no ringpop membership, so it opens no membership ports.
func staticHosts(p servicePorts) map[primitives.ServiceName]static.Hosts {
	at := func(port int) static.Hosts {
		return static.SingleLocalHost(net.JoinHostPort(loopback, strconv.Itoa(port)))
	}
	return map[primitives.ServiceName]static.Hosts{
		primitives.FrontendService: static.SingleLocalHost(p.frontendDialAddr()),
		primitives.HistoryService:  at(p.history),
		primitives.MatchingService: at(p.matching),
		primitives.WorkerService:   at(p.worker),
	}
}

// dynamicConfig returns the dynamic config values of the dev server.
// Everything not listed keeps the server's default.
func dynamicConfig() dynamicconfig.StaticClient {
	return dynamicconfig.StaticClient{
		// One developer's workload: a smaller mutable-state cache than the
		// production default of 128k entries keeps memory use modest.
		dynamicconfig.HistoryCacheHostLevelMaxSize.Key(): 8192,
		// The Web UI issues many visibility calls per page; the default of
		// 10 per second makes it hit the rate limiter.
		dynamicconfig.FrontendMaxNamespaceVisibilityRPSPerInstance.Key(): 100,
		// Search attributes added through the operator API are usable at
		// once instead of after the cache refresh interval.
		dynamicconfig.ForceSearchAttributesCacheRefreshOnRead.Key(): true,
		// With one history shard, one transfer queue carries every
		// workflow's next task to matching, and the default cap of 20
		// polls per second added ~45 ms to each step of a workflow once
		// the initial burst was spent. The timer queue (activity retries
		// and timeouts) and the visibility queue (the UI's lists) get the
		// same room.
		dynamicconfig.TransferProcessorMaxPollRPS.Key():   1000,
		dynamicconfig.TimerProcessorMaxPollRPS.Key():      1000,
		dynamicconfig.VisibilityProcessorMaxPollRPS.Key(): 1000,
		// Task queue fairness: tasks are dispatched by fairness key (each
		// tenant's organization, see workflows.FairnessKey) in turn, so a
		// tenant with a backlog cannot make the others wait behind it.
		dynamicconfig.MatchingEnableFairness.Key(): true,

		// The server never stops the SDK workers behind the following system
		// jobs: after Stop they would keep polling, and logging, for the rest
		// of the process. None is needed on a dev server. The two scanners
		// only garbage-collect idle task queue rows and orphaned history
		// branches. Without the parent-close-policy worker the history
		// service applies parent close policies itself, however many
		// children a workflow has.
		dynamicconfig.TaskQueueScannerEnabled.Key():       false,
		dynamicconfig.HistoryScannerEnabled.Key():         false,
		dynamicconfig.EnableParentClosePolicyWorker.Key(): false,
	}
}

// serverOptions gathers everything temporal.NewServer needs.
func serverOptions(cfg *config.Config, p servicePorts, logger serverLogger) []temporal.ServerOption {
	return []temporal.ServerOption{
		temporal.WithConfig(cfg),
		temporal.ForServices(temporal.DefaultServices),
		temporal.WithStaticHosts(staticHosts(p)),
		temporal.WithLogger(logger),
		temporal.WithDynamicConfigClient(dynamicConfig()),
	}
}
