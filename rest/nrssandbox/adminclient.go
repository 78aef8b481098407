package nrssandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/einvoice-ng/einvoice/model"
)

// AdminClient registers businesses with a stand-in running elsewhere (its
// own process, or embedded in another API process) through its admin
// endpoint POST /sandbox/businesses. It implements the application's
// registrar over HTTP, as Handler does in process.
type AdminClient struct {
	base  string
	token string
	http  *http.Client
}

// AdminClientTimeout bounds one registration call.
const AdminClientTimeout = 10 * time.Second

// NewAdminClient talks to the stand-in at baseURL (e.g.
// http://127.0.0.1:8090, or http://api:8080/nrs-sandbox for an embedded one)
// with the stand-in's admin token. hc nil means a client with
// AdminClientTimeout.
func NewAdminClient(baseURL, token string, hc *http.Client) (*AdminClient, error) {
	u, err := url.Parse(strings.TrimSpace(baseURL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return nil, errors.New("nrssandbox: the stand-in's URL must be an absolute http or https URL without user info")
	}
	if token == "" {
		return nil, errors.New("nrssandbox: the stand-in's admin token is required")
	}
	if hc == nil {
		hc = &http.Client{Timeout: AdminClientTimeout}
	}
	return &AdminClient{base: strings.TrimRight(u.String(), "/"), token: token, http: hc}, nil
}

// String describes the client without its token.
func (c *AdminClient) String() string { return "nrssandbox.AdminClient{" + c.base + "}" }

// RegisterSandboxBusiness registers an einvoice sandbox project's business,
// owned by the project. Errors are *model.Error: conflict (409: the business,
// API key or TIN belongs to another project), invalid (another 4xx) or
// unavailable (no answer, 5xx, 429).
func (c *AdminClient) RegisterSandboxBusiness(ctx context.Context, b model.SandboxBusiness) error {
	_, err := c.Register(ctx, businessOf(b))
	return err
}

// Register registers a business and returns it as the stand-in keeps it.
// Errors are as RegisterSandboxBusiness's.
func (c *AdminClient) Register(ctx context.Context, b Business) (BusinessInfo, error) {
	body, err := json.Marshal(b)
	if err != nil {
		return BusinessInfo{}, model.Wrap(model.CodeInvalid, err, "NRS sandbox: cannot encode the business")
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/sandbox/businesses", bytes.NewReader(body))
	if err != nil {
		return BusinessInfo{}, model.Wrap(model.CodeInvalid, err, "NRS sandbox: cannot build the request")
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+c.token)
	resp, err := c.http.Do(req)
	if err != nil {
		return BusinessInfo{}, model.Wrap(model.CodeUnavailable, err, "NRS sandbox at %s does not answer", c.base)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return BusinessInfo{}, model.Wrap(model.CodeUnavailable, err, "NRS sandbox at %s: the answer could not be read", c.base)
	}
	if resp.StatusCode == http.StatusCreated || resp.StatusCode == http.StatusOK {
		var env struct {
			Data BusinessInfo `json:"data"`
		}
		if err := json.Unmarshal(raw, &env); err != nil {
			return BusinessInfo{}, model.Wrap(model.CodeUnavailable, err, "NRS sandbox at %s: unreadable answer", c.base)
		}
		return env.Data, nil
	}
	var env errorBody
	details := ""
	if json.Unmarshal(raw, &env) == nil {
		details = env.Error.Details
		if details == "" {
			details = env.Error.PublicMessage
		}
	}
	if details == "" {
		details = fmt.Sprintf("HTTP %d", resp.StatusCode)
	}
	switch {
	case resp.StatusCode == http.StatusConflict:
		return BusinessInfo{}, model.Errorf(model.CodeConflict, "NRS sandbox: %s", details)
	case resp.StatusCode == http.StatusNotFound:
		return BusinessInfo{}, model.Errorf(model.CodeUnavailable,
			"NRS sandbox at %s has no admin endpoint (is its admin token set?)", c.base)
	case resp.StatusCode == http.StatusUnauthorized:
		return BusinessInfo{}, model.Errorf(model.CodeUnavailable, "NRS sandbox at %s refuses the admin token", c.base)
	case resp.StatusCode >= 400 && resp.StatusCode < 500 && resp.StatusCode != http.StatusTooManyRequests:
		return BusinessInfo{}, model.Errorf(model.CodeInvalid, "NRS sandbox: %s", details)
	}
	return BusinessInfo{}, model.Errorf(model.CodeUnavailable, "NRS sandbox at %s answers HTTP %d: %s", c.base, resp.StatusCode, details)
}
