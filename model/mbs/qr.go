package mbs

import (
	"context"
	"encoding/json"
	"net/http"
)

// QRVerifyRequest is the body of the sandbox stand-in's
// POST /api/v1/invoice/qr/verify.
type QRVerifyRequest struct {
	IRN       string `json:"irn"`
	QRPayload string `json:"qr_payload"`
	// Encryption is the scheme used ("" means the business's own).
	Encryption string `json:"encryption,omitempty"`
}

// QRCheck is one check of a QR verification.
type QRCheck struct {
	Name    string `json:"name"`
	Passed  bool   `json:"passed"`
	Message string `json:"message"`
}

// QRVerification is the stand-in's verdict on a QR payload: whether it
// decrypts, with the business's private key, to
// {"irn":"<irn>.<unix seconds>","certificate":"<the business's certificate>"}.
type QRVerification struct {
	Valid     bool            `json:"valid"`
	IRN       string          `json:"irn"`
	Timestamp int64           `json:"timestamp"`
	Checks    []QRCheck       `json:"checks"`
	Data      json.RawMessage `json:"data,omitempty"`
}

// VerifyQR calls the sandbox stand-in's POST /api/v1/invoice/qr/verify. The
// real NRS has no such endpoint (it answers 404); use it only against the
// stand-in, to prove a QR payload built locally is right.
func (c *Client) VerifyQR(ctx context.Context, in QRVerifyRequest) (QRVerification, Call, error) {
	body, err := encodeBody(in)
	if err != nil {
		return QRVerification{}, Call{Operation: OpVerifyQR}, err
	}
	data, call, err := c.enveloped(ctx, request{op: OpVerifyQR, method: http.MethodPost,
		path: "/api/v1/invoice/qr/verify", body: body})
	if err != nil {
		return QRVerification{}, call, err
	}
	var v QRVerification
	if err := json.Unmarshal(data, &v); err != nil {
		return QRVerification{}, call, c.malformed(request{op: OpVerifyQR, method: http.MethodPost,
			path: "/api/v1/invoice/qr/verify"}, call, "qr verification is not an object")
	}
	v.Data = data
	return v, call, nil
}
