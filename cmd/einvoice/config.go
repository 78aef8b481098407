package main

import (
	"crypto/tls"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	application "github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/authority"
	"github.com/einvoice-ng/einvoice/model/egress"
	"github.com/einvoice-ng/einvoice/model/idempotency"
	"github.com/einvoice-ng/einvoice/model/inbox"
	"github.com/einvoice-ng/einvoice/model/mbs"
	"github.com/einvoice-ng/einvoice/model/portal"
	"github.com/einvoice-ng/einvoice/model/runs"
	"github.com/einvoice-ng/einvoice/model/secret"
	"github.com/einvoice-ng/einvoice/model/submissions"
	"github.com/einvoice-ng/einvoice/model/webhooks"
	"github.com/einvoice-ng/einvoice/rest"
	"github.com/einvoice-ng/einvoice/workflows"
)

// config is everything a server process needs, from flags (dev) or the
// environment (api).
type config struct {
	DatabaseURL   string
	HTTPAddr      string
	JWTSecret     []byte
	EncryptionKey []byte
	APIKeyPepper  []byte
	// AuditKey keys the audit chain (EINVOICE_AUDIT_KEY, else derived from
	// the encryption key).
	AuditKey       []byte
	TokenTTL       time.Duration
	AutoMigrate    bool
	TrustProxy     rest.ProxyTrust
	LogLevel       string
	SandboxBaseURL string
	// ProductionBaseURL is NRS's production host, the only one production
	// code lists are refreshed from ("" means authority.DefaultProductionBaseURL).
	ProductionBaseURL string
	// ReportBaseURL is the host production projects send post-payment VAT
	// reports to ("" means their NRS host).
	ReportBaseURL string
	// TemporalAddress and TemporalNamespace locate Temporal, which runs
	// certification workflows; an empty address leaves runs unavailable.
	TemporalAddress   string
	TemporalNamespace string
	// TemporalTLS secures the connection to the frontend (TEMPORAL_TLS_*);
	// nil means plain gRPC.
	TemporalTLS *tls.Config
	// TemporalCodec encrypts the payloads every Temporal client writes.
	TemporalCodec *workflows.PayloadCodec
	// TemporalUIURL is where browsers reach the Temporal Web UI, for the
	// portal's links to certification runs; empty shows no link.
	TemporalUIURL string
	// Sandbox says how this process serves or reaches the NRS sandbox
	// stand-in.
	Sandbox sandboxConfig
	// Runs and SandboxRegistrar are wired by the subcommand, never read
	// from the environment.
	Runs             runs.Starter
	Submissions      submissions.Starter
	Inbox            inbox.Starter
	SandboxRegistrar portal.SandboxRegistrar

	// Ops configures rate limits and their Redis, attempt limits, request
	// deadlines, GraphQL's exposure and limits, and /metrics.
	Ops opsConfig
	// Quotas bound what one account may create (EINVOICE_MAX_*).
	Quotas application.Quotas
	// Idempotency bounds what Idempotency-Keys keep
	// (EINVOICE_IDEMPOTENCY_*).
	Idempotency idempotency.Limits
	// Egress is where production projects may call: EINVOICE_NRS_HOSTS
	// and EINVOICE_EGRESS_ALLOW_PRIVATE.
	Egress egress.Policy
	// UsageJournalDir journals every metered call so that a killed api
	// loses no count (EINVOICE_USAGE_JOURNAL_DIR; a directory on the
	// api's own disk, kept across restarts).
	UsageJournalDir string
	// Breakers are the process's circuit breakers of NRS
	// (EINVOICE_NRS_BREAKER_*), shared by every MBS client it builds.
	Breakers *mbs.Breakers
	// Queue is how invoices wait for NRS: deadlines and the drain's pace
	// (EINVOICE_B2C_DEADLINE, EINVOICE_DEADLINE_AT_RISK_MARGIN,
	// EINVOICE_INVOICE_QUEUE_RATE).
	Queue queueConfig
	// Webhooks configures webhook deliveries: EINVOICE_WEBHOOK_ALLOW_PRIVATE
	// (endpoints on special-purpose addresses), EINVOICE_WEBHOOK_ALLOW_HTTP
	// (plain http for production projects). The subcommand sets Engine.
	Webhooks webhooks.Config
}

// webhooksFromEnv reads EINVOICE_WEBHOOK_ALLOW_PRIVATE and
// EINVOICE_WEBHOOK_ALLOW_HTTP (true or false); dev is the default of both.
func webhooksFromEnv(getenv func(string) string, dev bool) (webhooks.Config, error) {
	c := webhooks.Config{AllowPrivate: dev, AllowHTTP: dev}
	for _, f := range []struct {
		name string
		v    *bool
	}{{"EINVOICE_WEBHOOK_ALLOW_PRIVATE", &c.AllowPrivate}, {"EINVOICE_WEBHOOK_ALLOW_HTTP", &c.AllowHTTP}} {
		switch v := strings.TrimSpace(getenv(f.name)); v {
		case "":
		case "true":
			*f.v = true
		case "false":
			*f.v = false
		default:
			return c, fmt.Errorf("%s: want true or false, got %q", f.name, v)
		}
	}
	return c, nil
}

// egressFromEnv reads EINVOICE_NRS_HOSTS (comma-separated origins; default
// NRS's production host) and EINVOICE_EGRESS_ALLOW_PRIVATE (true lets
// production projects reach special-purpose addresses: development only).
// allowPrivate is the default of the latter.
func egressFromEnv(getenv func(string) string, allowPrivate bool) (egress.Policy, error) {
	p := egress.Policy{AllowPrivate: allowPrivate}
	if v := strings.TrimSpace(getenv("EINVOICE_NRS_HOSTS")); v != "" {
		origins, err := egress.NormalizeOrigins(strings.Split(v, ","))
		if err != nil || len(origins) == 0 {
			return p, fmt.Errorf("EINVOICE_NRS_HOSTS: want comma-separated origins such as %s: %v", authority.DefaultProductionBaseURL, err)
		}
		p.Origins = origins
	}
	switch v := strings.TrimSpace(getenv("EINVOICE_EGRESS_ALLOW_PRIVATE")); v {
	case "":
	case "true":
		p.AllowPrivate = true
	case "false":
		p.AllowPrivate = false
	default:
		return p, fmt.Errorf("EINVOICE_EGRESS_ALLOW_PRIVATE: want true or false, got %q", v)
	}
	return p, nil
}

// parseSize reads a byte size: a number of bytes, or one with a KiB, MiB or
// GiB suffix ("256KiB").
func parseSize(v string) (int64, error) {
	v = strings.TrimSpace(v)
	mult := int64(1)
	for suffix, m := range map[string]int64{"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30} {
		if n, ok := strings.CutSuffix(v, suffix); ok {
			v, mult = strings.TrimSpace(n), m
			break
		}
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 1 || n > (1<<40)/mult {
		return 0, fmt.Errorf("want a positive size such as 262144, 256KiB or 64MiB")
	}
	return n * mult, nil
}

// idempotencyFromEnv reads EINVOICE_IDEMPOTENCY_MAX_RESPONSE,
// EINVOICE_IDEMPOTENCY_MAX_BYTES and EINVOICE_IDEMPOTENCY_MAX_KEYS; unset
// ones take the defaults.
func idempotencyFromEnv(getenv func(string) string) (idempotency.Limits, error) {
	var l idempotency.Limits
	if v := getenv("EINVOICE_IDEMPOTENCY_MAX_RESPONSE"); v != "" {
		n, err := parseSize(v)
		if err != nil || n > 64<<20 {
			return l, fmt.Errorf("EINVOICE_IDEMPOTENCY_MAX_RESPONSE: want a size up to 64MiB, got %q", v)
		}
		l.MaxResponseBytes = int(n)
	}
	if v := getenv("EINVOICE_IDEMPOTENCY_MAX_BYTES"); v != "" {
		n, err := parseSize(v)
		if err != nil {
			return l, fmt.Errorf("EINVOICE_IDEMPOTENCY_MAX_BYTES: %w", err)
		}
		l.MaxBytesPerCredential = n
	}
	if v := getenv("EINVOICE_IDEMPOTENCY_MAX_KEYS"); v != "" {
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil || n < 1 {
			return l, fmt.Errorf("EINVOICE_IDEMPOTENCY_MAX_KEYS: want a positive number, got %q", v)
		}
		l.MaxKeysPerCredential = n
	}
	return l, nil
}

// quotasFromEnv reads EINVOICE_MAX_*: a positive number, or "off" for no
// bound; unset takes the default.
func quotasFromEnv(getenv func(string) string) (application.Quotas, error) {
	var q application.Quotas
	for _, f := range []struct {
		name string
		dst  *int
	}{
		{"EINVOICE_MAX_ORGANIZATIONS_PER_USER", &q.OrganizationsPerUser},
		{"EINVOICE_MAX_PROJECTS_PER_ORGANIZATION", &q.ProjectsPerOrganization},
		{"EINVOICE_MAX_KEYS_PER_PROJECT", &q.KeysPerProject},
		{"EINVOICE_MAX_RUNS_PER_PROJECT", &q.RunsPerProject},
	} {
		v := strings.TrimSpace(getenv(f.name))
		switch v {
		case "":
		case "off":
			*f.dst = -1
		default:
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return q, fmt.Errorf("%s: want a positive number or off, got %q", f.name, v)
			}
			*f.dst = n
		}
	}
	return q, nil
}

// envConfig reads the api configuration and refuses to start without its
// secrets.
func envConfig(getenv func(string) string) (*config, error) {
	c := &config{
		DatabaseURL: getenv("EINVOICE_DATABASE_URL"),
		HTTPAddr:    getenv("EINVOICE_HTTP_ADDR"),
		AutoMigrate: getenv("EINVOICE_AUTO_MIGRATE") != "false",
		LogLevel:    getenv("EINVOICE_LOG_LEVEL"),
		TokenTTL:    time.Hour,
	}
	var missing []string
	if c.DatabaseURL == "" {
		missing = append(missing, "EINVOICE_DATABASE_URL")
	}
	if c.HTTPAddr == "" {
		c.HTTPAddr = ":8080"
	}
	var err error
	if v := getenv("EINVOICE_JWT_SECRET"); v == "" {
		missing = append(missing, "EINVOICE_JWT_SECRET")
	} else if len(v) < 32 {
		return nil, errors.New("EINVOICE_JWT_SECRET must be at least 32 characters")
	} else {
		c.JWTSecret = []byte(v)
	}
	if v := getenv("EINVOICE_ENCRYPTION_KEY"); v == "" {
		missing = append(missing, "EINVOICE_ENCRYPTION_KEY")
	} else if c.EncryptionKey, err = decodeKey(v); err != nil {
		return nil, fmt.Errorf("EINVOICE_ENCRYPTION_KEY: %w", err)
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("missing required configuration: %s (see docs/configuration.md)", strings.Join(missing, ", "))
	}
	if v := getenv("EINVOICE_API_KEY_PEPPER"); v != "" {
		if len(v) < 32 {
			return nil, errors.New("EINVOICE_API_KEY_PEPPER must be at least 32 characters")
		}
		c.APIKeyPepper = []byte(v)
	} else {
		c.APIKeyPepper = secret.Derive(c.EncryptionKey, "api-key-pepper")
	}
	if c.AuditKey, err = auditKeyFromEnv(getenv, c.EncryptionKey); err != nil {
		return nil, err
	}
	if v := getenv("EINVOICE_TOKEN_TTL"); v != "" {
		if c.TokenTTL, err = time.ParseDuration(v); err != nil || c.TokenTTL < time.Minute {
			return nil, errors.New("EINVOICE_TOKEN_TTL must be a duration of at least 1m (e.g. 1h)")
		}
	}
	if c.TrustProxy, err = rest.ParseProxyTrust(getenv("EINVOICE_TRUST_PROXY")); err != nil {
		return nil, fmt.Errorf("EINVOICE_TRUST_PROXY: %w", err)
	}
	c.UsageJournalDir = getenv("EINVOICE_USAGE_JOURNAL_DIR")
	c.SandboxBaseURL = getenv("EINVOICE_NRS_SANDBOX_URL")
	if c.Sandbox, err = sandboxFromEnv(getenv, c.DatabaseURL); err != nil {
		return nil, err
	}
	c.ProductionBaseURL = getenv("EINVOICE_NRS_PRODUCTION_URL")
	if u, err := url.Parse(c.ProductionBaseURL); c.ProductionBaseURL != "" && (err != nil || u.Scheme != "https" && u.Scheme != "http" || u.Host == "") {
		return nil, errors.New("EINVOICE_NRS_PRODUCTION_URL must be an http or https URL")
	}
	c.ReportBaseURL = getenv("EINVOICE_NRS_REPORT_URL")
	if u, err := url.Parse(c.ReportBaseURL); c.ReportBaseURL != "" && (err != nil || u.Scheme != "https" && u.Scheme != "http" || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "") {
		return nil, errors.New("EINVOICE_NRS_REPORT_URL must be an http or https URL without user info, query or fragment")
	}
	if c.Ops, err = opsFromEnv(getenv, modeAPI); err != nil {
		return nil, err
	}
	if c.Quotas, err = quotasFromEnv(getenv); err != nil {
		return nil, err
	}
	if c.Idempotency, err = idempotencyFromEnv(getenv); err != nil {
		return nil, err
	}
	if c.Breakers, err = breakersFromEnv(getenv); err != nil {
		return nil, err
	}
	if c.Queue, err = queueFromEnv(getenv); err != nil {
		return nil, err
	}
	if c.Egress, err = egressFromEnv(getenv, false); err != nil {
		return nil, err
	}
	if c.Webhooks, err = webhooksFromEnv(getenv, false); err != nil {
		return nil, err
	}
	if c.TemporalCodec, err = payloadCodecFromEnv(getenv, c.EncryptionKey); err != nil {
		return nil, err
	}
	if c.TemporalTLS, err = temporalTLSFromEnv(getenv); err != nil {
		return nil, err
	}
	c.TemporalAddress = getenv("TEMPORAL_ADDRESS")
	c.TemporalNamespace = getenv("TEMPORAL_NAMESPACE")
	if c.TemporalNamespace == "" {
		c.TemporalNamespace = defaultTemporalNamespace
	}
	if v := getenv("EINVOICE_TEMPORAL_UI_URL"); v != "" {
		u, err := url.Parse(v)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("EINVOICE_TEMPORAL_UI_URL must be an http or https URL")
		}
		c.TemporalUIURL = strings.TrimRight(v, "/")
	}
	return c, nil
}

// auditKeyFromEnv reads EINVOICE_AUDIT_KEY (32 bytes, hex or base64); unset,
// the key is derived from the encryption key.
func auditKeyFromEnv(getenv func(string) string, encryptionKey []byte) ([]byte, error) {
	if v := getenv("EINVOICE_AUDIT_KEY"); v != "" {
		k, err := decodeKey(v)
		if err != nil {
			return nil, fmt.Errorf("EINVOICE_AUDIT_KEY: %w", err)
		}
		return k, nil
	}
	if len(encryptionKey) == 0 {
		return nil, nil
	}
	return secret.Derive(encryptionKey, "audit-chain"), nil
}

// decodeKey accepts a 32-byte key as 64 hex characters or standard base64.
func decodeKey(v string) ([]byte, error) {
	v = strings.TrimSpace(v)
	if b, err := hex.DecodeString(v); err == nil && len(b) == secret.KeySize {
		return b, nil
	}
	if b, err := base64.StdEncoding.DecodeString(v); err == nil && len(b) == secret.KeySize {
		return b, nil
	}
	return nil, errors.New("must be 32 bytes, as 64 hex characters or base64 (openssl rand -base64 32)")
}

// devSecrets are generated once per data directory so that restarts keep
// tokens and sealed secrets valid.
type devSecrets struct {
	JWTSecret     string `json:"jwt_secret"`
	EncryptionKey string `json:"encryption_key"`
	APIKeyPepper  string `json:"api_key_pepper"`
	AuditKey      string `json:"audit_key"`
}

func loadDevSecrets(dataDir string) (*devSecrets, error) {
	path := filepath.Join(dataDir, "secrets.json")
	b, err := os.ReadFile(path)
	if err == nil {
		var s devSecrets
		if err := json.Unmarshal(b, &s); err != nil {
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
		if s.JWTSecret == "" || s.EncryptionKey == "" || s.APIKeyPepper == "" {
			return nil, fmt.Errorf("%s is incomplete; delete it to generate new secrets", path)
		}
		// A data dir made by an older version may be readable by others.
		if err := os.Chmod(dataDir, 0o700); err != nil {
			return nil, err
		}
		if err := os.Chmod(path, 0o600); err != nil {
			return nil, err
		}
		if s.AuditKey != "" {
			return &s, nil
		}
		// A data dir from before the audit key: add one, keep the rest.
		k, err := secret.RandomKey()
		if err != nil {
			return nil, err
		}
		s.AuditKey = base64.StdEncoding.EncodeToString(k)
		return &s, writeDevSecrets(path, &s)
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	gen := func() (string, error) {
		k, err := secret.RandomKey()
		return base64.StdEncoding.EncodeToString(k), err
	}
	var s devSecrets
	for _, dst := range []*string{&s.JWTSecret, &s.EncryptionKey, &s.APIKeyPepper, &s.AuditKey} {
		if *dst, err = gen(); err != nil {
			return nil, err
		}
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, err
	}
	if err := os.Chmod(dataDir, 0o700); err != nil { // the data dir holds the secrets
		return nil, err
	}
	return &s, writeDevSecrets(path, &s)
}

// writeDevSecrets writes the data dir's secrets, readable by the owner only
// (replacing the file in one rename).
func writeDevSecrets(path string, s *devSecrets) error {
	b, _ := json.MarshalIndent(s, "", "  ")
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
