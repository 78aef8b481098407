package nrssandbox

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/nrs"
)

// qrVerifyBody is the body of the sandbox-only POST /api/v1/invoice/qr/verify.
type qrVerifyBody struct {
	IRN        string `json:"irn"`
	QRPayload  string `json:"qr_payload"`
	Encryption string `json:"encryption"`
}

// qrCheck is one check of a QR verification.
type qrCheck struct {
	Name    string `json:"name"`
	Passed  bool   `json:"passed"`
	Message string `json:"message"`
}

// Names of the QR checks, in order.
const (
	QRCheckDecrypt     = "decrypt"
	QRCheckIRN         = "irn"
	QRCheckTimestamp   = "timestamp"
	QRCheckCertificate = "certificate"
)

// verifyQR is POST /api/v1/invoice/qr/verify, which the real NRS does not
// have: it decrypts a QR payload with the calling business's private key and
// answers whether it holds {"irn":"<irn>.<unix seconds>","certificate":"<the
// business's certificate>"}. A payload that fails is a 200 with valid false
// and the failed checks; only an unusable request is an error.
func (h *Handler) verifyQR(w http.ResponseWriter, r *http.Request) error {
	return h.authed(func(w http.ResponseWriter, r *http.Request, b *business) error {
		return h.verifyQRFor(w, r, b)
	})(w, r)
}

func (h *Handler) verifyQRFor(w http.ResponseWriter, r *http.Request, caller *business) error {
	var in qrVerifyBody
	if _, err := h.decodeBody(r, &in); err != nil {
		return err
	}
	if in.IRN == "" || in.QRPayload == "" || len(in.QRPayload) > 4096 {
		return invalid("irn and qr_payload are required")
	}
	privPEM, err := h.privateKey(caller)
	if err != nil {
		return invalid("%s", err.Error())
	}
	if privPEM == "" {
		return invalid("no private key is registered for this business: register it with its private_key to verify QR payloads")
	}
	priv, err := nrs.ParsePrivateKey(privPEM)
	if err != nil {
		return err
	}
	enc := model.QREncryption(in.Encryption)
	if enc == "" {
		enc = model.QREncryption(caller.QREncryption)
	}
	checks := make([]qrCheck, 0, 4)
	var gotIRN string
	var ts int64
	irnTS, cert, err := nrs.DecryptQR(priv, strings.TrimSpace(in.QRPayload), enc)
	if err != nil {
		checks = append(checks, qrCheck{QRCheckDecrypt, false, strings.Join(fieldMessages(err), "; ")})
	} else {
		checks = append(checks, qrCheck{QRCheckDecrypt, true, "the payload decrypts with the business's private key"})
		var tsText string
		var cut bool
		gotIRN, tsText, cut = cutLast(irnTS, '.')
		switch {
		case !cut:
			checks = append(checks, qrCheck{QRCheckIRN, false, `"irn" must be "<irn>.<unix seconds>"`})
		case gotIRN != in.IRN:
			checks = append(checks, qrCheck{QRCheckIRN, false, "the payload's irn " + quote(gotIRN) + " is not " + quote(in.IRN)})
		default:
			checks = append(checks, qrCheck{QRCheckIRN, true, "the payload's irn matches"})
		}
		n, perr := strconv.ParseInt(tsText, 10, 64)
		if cut && perr == nil && len(tsText) == 10 && n >= nrs.MinQRTimestamp && n <= nrs.MaxQRTimestamp {
			ts = n
			checks = append(checks, qrCheck{QRCheckTimestamp, true, "the timestamp is Unix seconds with 10 digits"})
		} else {
			checks = append(checks, qrCheck{QRCheckTimestamp, false, "the timestamp must be Unix seconds with 10 digits"})
		}
		if cert == caller.Certificate {
			checks = append(checks, qrCheck{QRCheckCertificate, true, "the certificate is the business's"})
		} else {
			checks = append(checks, qrCheck{QRCheckCertificate, false, "the certificate is not the business's"})
		}
	}
	valid := true
	for _, c := range checks {
		valid = valid && c.Passed
	}
	writeData(w, http.StatusOK, map[string]any{"valid": valid, "irn": gotIRN, "timestamp": ts, "checks": checks})
	return nil
}

// cutLast splits s around the last sep.
func cutLast(s string, sep byte) (before, after string, found bool) {
	i := strings.LastIndexByte(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+1:], true
}

// quote quotes a request value for a message, cut short.
func quote(s string) string {
	const max = 64
	if len(s) > max {
		s = s[:max] + "..."
	}
	return strconv.Quote(s)
}
