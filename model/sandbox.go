package model

import (
	"fmt"
	"log/slog"

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
