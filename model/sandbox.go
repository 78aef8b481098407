package model

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"
)

// SandboxBusiness is a sandbox project as the NRS sandbox stand-in must know
// it to act as NRS for that project: the business and service ids, the key
// material (the private key decrypts QR payloads) and the API credentials the
// project's calls present. The application hands it to the stand-in's
// registration (over HTTP, or in process when the stand-in is embedded); it
// lives here, below both, so that neither imports the other. Its String and
// LogValue hide the secrets.
type SandboxBusiness struct {
	ProjectID     uuid.UUID
	BusinessID    string
	ServiceID     string
	PublicKeyPEM  string
	Certificate   string
	PrivateKeyPEM string
	QREncryption  QREncryption
	APIKey        string
	APISecret     string
	BaseURL       string
}

// String describes the business without its secrets.
func (b SandboxBusiness) String() string {
	return fmt.Sprintf("SandboxBusiness{ProjectID:%s BusinessID:%s ServiceID:%s APIKey:%s APISecret:%s}",
		b.ProjectID, b.BusinessID, b.ServiceID, redactedMark(b.APIKey), redactedMark(b.APISecret))
}

// GoString is String, for %#v.
func (b SandboxBusiness) GoString() string { return b.String() }

// LogValue logs the business without its secrets.
func (b SandboxBusiness) LogValue() slog.Value {
	return slog.GroupValue(slog.String("project_id", b.ProjectID.String()),
		slog.String("business_id", b.BusinessID), slog.String("service_id", b.ServiceID))
}

func redactedMark(secret string) string {
	if secret == "" {
		return `""`
	}
	return "[REDACTED]"
}

// SandboxFault is an outage or a throttle of a sandbox business's endpoints
// at the NRS sandbox stand-in, for rehearsing NRS failures. Requests give
// Kind, Endpoint, Status (outage), Rate (throttle), RetryAfter and
// Duration; answers give StartsAt and EndsAt instead of Duration.
type SandboxFault struct {
	// Kind is "outage" or "throttle".
	Kind string `json:"kind"`
	// Endpoint is an MBS endpoint name (invoice_sign, transmit, ...); ""
	// for every endpoint.
	Endpoint string `json:"endpoint"`
	// Status is an outage's HTTP status: 502, 503 (default) or 504.
	Status int `json:"status,omitempty"`
	// Rate is a throttle's allowance, COUNT/PERIOD (10/m).
	Rate string `json:"rate,omitempty"`
	// RetryAfter is sent as Retry-After, in seconds (0 to 3600).
	RetryAfter int `json:"retry_after,omitempty"`
	// Duration is how long the fault lasts from now (1s to 168h); requests
	// only.
	Duration string `json:"duration,omitempty"`
	// StartsAt and EndsAt bound the fault; answers only.
	StartsAt *time.Time `json:"starts_at,omitempty"`
	EndsAt   *time.Time `json:"ends_at,omitempty"`
}

// Kinds of SandboxFault.
const (
	SandboxFaultOutage   = "outage"
	SandboxFaultThrottle = "throttle"
)
