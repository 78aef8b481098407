package main

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/einvoice-ng/einvoice/model/secret"
	"github.com/einvoice-ng/einvoice/model/service"
)

// config is everything a server process needs, from flags (dev) or the
// environment (api).
type config struct {
	DatabaseURL    string
	HTTPAddr       string
	JWTSecret      []byte
	EncryptionKey  []byte
	APIKeyPepper   []byte
	TokenTTL       time.Duration
	AutoMigrate    bool
	TrustProxy     bool
	LogLevel       string
	SandboxBaseURL string
	// ProductionBaseURL is NRS's production host, the only one production
	// code lists are refreshed from ("" means service.DefaultProductionBaseURL).
	ProductionBaseURL string
	// TemporalAddress and TemporalNamespace locate Temporal, which runs
	// certification workflows; an empty address leaves runs unavailable.
	TemporalAddress   string
	TemporalNamespace string
	// TemporalUIURL is where browsers reach the Temporal Web UI, for the
	// portal's links to certification runs; empty shows no link.
	TemporalUIURL string
	// Sandbox says how this process serves or reaches the NRS sandbox
	// stand-in.
	Sandbox sandboxConfig
	// Runs and SandboxRegistrar are wired by the subcommand, never read
	// from the environment.
	Runs             service.RunStarter
	SandboxRegistrar service.SandboxRegistrar

	// Ops configures rate limits and their Redis, attempt limits, request
	// deadlines, GraphQL's exposure and limits, and /metrics.
	Ops opsConfig
}

// envConfig reads the api configuration and refuses to start without its
// secrets.
func envConfig(getenv func(string) string) (*config, error) {
	c := &config{
		DatabaseURL: getenv("EINVOICE_DATABASE_URL"),
		HTTPAddr:    getenv("EINVOICE_HTTP_ADDR"),
		AutoMigrate: getenv("EINVOICE_AUTO_MIGRATE") != "false",
		TrustProxy:  getenv("EINVOICE_TRUST_PROXY") == "true",
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
		return nil, fmt.Errorf("missing required configuration: %s (see README, Configuration)", strings.Join(missing, ", "))
	}
	if v := getenv("EINVOICE_API_KEY_PEPPER"); v != "" {
		if len(v) < 32 {
			return nil, errors.New("EINVOICE_API_KEY_PEPPER must be at least 32 characters")
		}
		c.APIKeyPepper = []byte(v)
	} else {
		c.APIKeyPepper = secret.Derive(c.EncryptionKey, "api-key-pepper")
	}
	if v := getenv("EINVOICE_TOKEN_TTL"); v != "" {
		if c.TokenTTL, err = time.ParseDuration(v); err != nil || c.TokenTTL < time.Minute {
			return nil, errors.New("EINVOICE_TOKEN_TTL must be a duration of at least 1m (e.g. 1h)")
		}
	}
	c.SandboxBaseURL = getenv("EINVOICE_NRS_SANDBOX_URL")
	if c.Sandbox, err = sandboxFromEnv(getenv, c.DatabaseURL); err != nil {
		return nil, err
	}
	c.ProductionBaseURL = getenv("EINVOICE_NRS_PRODUCTION_URL")
	if u, err := url.Parse(c.ProductionBaseURL); c.ProductionBaseURL != "" && (err != nil || u.Scheme != "https" && u.Scheme != "http" || u.Host == "") {
		return nil, errors.New("EINVOICE_NRS_PRODUCTION_URL must be an http or https URL")
	}
	if c.Ops, err = opsFromEnv(getenv, modeAPI); err != nil {
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
		return &s, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	gen := func() (string, error) {
		k, err := secret.RandomKey()
		return base64.StdEncoding.EncodeToString(k), err
	}
	var s devSecrets
	for _, dst := range []*string{&s.JWTSecret, &s.EncryptionKey, &s.APIKeyPepper} {
		if *dst, err = gen(); err != nil {
			return nil, err
		}
	}
	b, _ = json.MarshalIndent(s, "", "  ")
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, err
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		return nil, err
	}
	return &s, nil
}
