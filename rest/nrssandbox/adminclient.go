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

// SetSandboxFault switches on a fault of a business through the admin
// endpoint. Errors are *model.Error: not_found (no such business), invalid,
// conflict, or unavailable.
func (c *AdminClient) SetSandboxFault(ctx context.Context, businessID string, f Fault) (Fault, error) {
	body, err := json.Marshal(f)
	if err != nil {
		return Fault{}, model.Wrap(model.CodeInvalid, err, "NRS sandbox: cannot encode the fault")
	}
	var out Fault
	err = c.admin(ctx, http.MethodPost, "/sandbox/businesses/"+url.PathEscape(businessID)+"/faults", body, &out)
	return out, err
}

// SandboxFaults lists a business's faults in force through the admin
// endpoint.
func (c *AdminClient) SandboxFaults(ctx context.Context, businessID string) ([]Fault, error) {
	var out []Fault
	err := c.admin(ctx, http.MethodGet, "/sandbox/businesses/"+url.PathEscape(businessID)+"/faults", nil, &out)
	return out, err
}

// ClearSandboxFaults ends a business's faults through the admin endpoint
// (kind "" for all; endpoint "" or "*" for every endpoint of kind).
func (c *AdminClient) ClearSandboxFaults(ctx context.Context, businessID, kind, endpoint string) (int, error) {
	q := url.Values{}
	if kind != "" {
		q.Set("kind", kind)
		if endpoint != "" && endpoint != "*" {
			q.Set("endpoint", endpoint)
		}
	}
	path := "/sandbox/businesses/" + url.PathEscape(businessID) + "/faults"
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	var out struct {
		Cleared int `json:"cleared"`
	}
	err := c.admin(ctx, http.MethodDelete, path, nil, &out)
	return out.Cleared, err
}

// admin makes one admin call and reads the data of its answer into out.
func (c *AdminClient) admin(ctx context.Context, method, path string, body []byte, out any) error {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return model.Wrap(model.CodeInvalid, err, "NRS sandbox: cannot build the request")
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	resp, err := c.http.Do(req)
	if err != nil {
		return model.Wrap(model.CodeUnavailable, err, "NRS sandbox at %s does not answer", c.base)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return model.Wrap(model.CodeUnavailable, err, "NRS sandbox at %s: the answer could not be read", c.base)
	}
	if resp.StatusCode == http.StatusOK || resp.StatusCode == http.StatusCreated {
		env := struct {
			Data any `json:"data"`
		}{Data: out}
		if err := json.Unmarshal(raw, &env); err != nil {
			return model.Wrap(model.CodeUnavailable, err, "NRS sandbox at %s: unreadable answer", c.base)
		}
		return nil
	}
	var env errorBody
	details := fmt.Sprintf("HTTP %d", resp.StatusCode)
	if json.Unmarshal(raw, &env) == nil && env.Error.Details != "" {
		details = env.Error.Details
	}
	switch {
	case resp.StatusCode == http.StatusNotFound && env.Error.Handler != "":
		return model.Errorf(model.CodeNotFound, "NRS sandbox: %s", details)
	case resp.StatusCode == http.StatusNotFound:
		return model.Errorf(model.CodeUnavailable, "NRS sandbox at %s has no admin endpoint (is its admin token set?)", c.base)
	case resp.StatusCode == http.StatusUnauthorized:
		return model.Errorf(model.CodeUnavailable, "NRS sandbox at %s refuses the admin token", c.base)
	case resp.StatusCode == http.StatusConflict:
		return model.Errorf(model.CodeConflict, "NRS sandbox: %s", details)
	case resp.StatusCode >= 400 && resp.StatusCode < 500 && resp.StatusCode != http.StatusTooManyRequests:
		return model.Errorf(model.CodeInvalid, "NRS sandbox: %s", details)
	}
	return model.Errorf(model.CodeUnavailable, "NRS sandbox at %s answers HTTP %d: %s", c.base, resp.StatusCode, details)
}
