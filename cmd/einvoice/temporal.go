package main

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"go.temporal.io/sdk/client"

	"github.com/einvoice-ng/einvoice/model/secret"
	"github.com/einvoice-ng/einvoice/workflows"
)

// temporalOptions are the options of every Temporal client the process
// makes: the frontend, its namespace, mutual TLS when configured, and the
// payload codec that keeps tenant data out of Temporal's histories.
func (c *config) temporalOptions(stderr io.Writer) client.Options {
	o := client.Options{HostPort: c.TemporalAddress, Namespace: c.TemporalNamespace, Logger: temporalLogger(stderr)}
	if c.TemporalTLS != nil {
		o.ConnectionOptions.TLS = c.TemporalTLS
	}
	return workflows.ClientOptions(o, c.TemporalCodec)
}

// payloadCodecFromEnv builds the Temporal payload codec: its key is
// EINVOICE_TEMPORAL_PAYLOAD_KEY (32 bytes, hex or base64), else one derived
// from the encryption key; EINVOICE_TEMPORAL_PAYLOAD_OLD_KEYS (comma
// separated) still decrypt histories written under keys rotated out.
func payloadCodecFromEnv(getenv func(string) string, encryptionKey []byte) (*workflows.PayloadCodec, error) {
	current := secret.Derive(encryptionKey, "temporal-payload")
	if v := getenv("EINVOICE_TEMPORAL_PAYLOAD_KEY"); v != "" {
		k, err := decodeKey(v)
		if err != nil {
			return nil, fmt.Errorf("EINVOICE_TEMPORAL_PAYLOAD_KEY: %w", err)
		}
		current = k
	}
	var old [][]byte
	for _, v := range strings.Split(getenv("EINVOICE_TEMPORAL_PAYLOAD_OLD_KEYS"), ",") {
		if v = strings.TrimSpace(v); v == "" {
			continue
		}
		k, err := decodeKey(v)
		if err != nil {
			return nil, fmt.Errorf("EINVOICE_TEMPORAL_PAYLOAD_OLD_KEYS: %w", err)
		}
		old = append(old, k)
	}
	return workflows.NewPayloadCodec(current, old...)
}

// temporalTLSFromEnv reads the TLS settings of the connection to the
// Temporal frontend: TEMPORAL_TLS_CA (PEM file of the CA that signed the
// frontend's certificate), TEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY (PEM
// files of this process's client certificate, for mutual TLS) and
// TEMPORAL_TLS_SERVER_NAME. None set: plain gRPC.
func temporalTLSFromEnv(getenv func(string) string) (*tls.Config, error) {
	ca, cert, key := getenv("TEMPORAL_TLS_CA"), getenv("TEMPORAL_TLS_CERT"), getenv("TEMPORAL_TLS_KEY")
	name := getenv("TEMPORAL_TLS_SERVER_NAME")
	if ca == "" && cert == "" && key == "" && name == "" {
		return nil, nil
	}
	t := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: name}
	if ca != "" {
		pem, err := os.ReadFile(ca)
		if err != nil {
			return nil, fmt.Errorf("TEMPORAL_TLS_CA: %w", err)
		}
		t.RootCAs = x509.NewCertPool()
		if !t.RootCAs.AppendCertsFromPEM(pem) {
			return nil, errors.New("TEMPORAL_TLS_CA: no PEM certificate in " + ca)
		}
	}
	if (cert == "") != (key == "") {
		return nil, errors.New("TEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY go together")
	}
	if cert != "" {
		pair, err := tls.LoadX509KeyPair(cert, key)
		if err != nil {
			return nil, fmt.Errorf("TEMPORAL_TLS_CERT/TEMPORAL_TLS_KEY: %w", err)
		}
		t.Certificates = []tls.Certificate{pair}
	}
	return t, nil
}
