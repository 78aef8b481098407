package graph_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/einvoice-ng/einvoice/graph"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

// wsMessage is a graphql-transport-ws message.
type wsMessage struct {
	ID      string          `json:"id,omitempty"`
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload,omitempty"`
}

// wsClient speaks graphql-transport-ws to the real router over a socket.
type wsClient struct {
	t    testing.TB
	conn *websocket.Conn
	ctx  context.Context
}

func dialWS(t testing.TB, srv *httptest.Server) *wsClient {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	conn, resp, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/graphql", &websocket.DialOptions{
		Subprotocols: []string{"graphql-transport-ws"},
	})
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	if resp.Body != nil {
		resp.Body.Close()
	}
	t.Cleanup(func() { _ = conn.CloseNow() })
	if conn.Subprotocol() != "graphql-transport-ws" {
		t.Fatalf("subprotocol = %q", conn.Subprotocol())
	}
	return &wsClient{t: t, conn: conn, ctx: ctx}
}

func (c *wsClient) send(m wsMessage) {
	c.t.Helper()
	b, _ := json.Marshal(m)
	if err := c.conn.Write(c.ctx, websocket.MessageText, b); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

// next reads the next message other than a keep-alive ping.
func (c *wsClient) next() (wsMessage, error) {
	for {
		_, b, err := c.conn.Read(c.ctx)
		if err != nil {
			return wsMessage{}, err
		}
		var m wsMessage
		if err := json.Unmarshal(b, &m); err != nil {
			c.t.Fatalf("decode %s: %v", b, err)
		}
		if m.Type != "ping" && m.Type != "pong" {
			return m, nil
		}
	}
}

func (c *wsClient) must(wantType string) wsMessage {
	c.t.Helper()
	m, err := c.next()
	if err != nil {
		c.t.Fatalf("read (want %s): %v", wantType, err)
	}
	if m.Type != wantType {
		c.t.Fatalf("got %s %s, want %s", m.Type, m.Payload, wantType)
	}
	return m
}

// TestWebsocket checks the graphql-transport-ws transport and its
// connection_init authentication with queries over the socket, which the
// protocol allows: the authentication and framing are what subscriptions
// use (see TestCertificationRunEndToEnd for one).
func TestWebsocket(t *testing.T) {
	s := newServer(t, storetest.Dialect{Name: "sqlite", Open: storetest.SQLite}, graph.Options{})
	tn := s.tenant("socket")
	srv := httptest.NewServer(s.h)
	t.Cleanup(srv.Close)

	subscribeMe := func(c *wsClient) wsMessage {
		c.send(wsMessage{ID: "1", Type: "subscribe", Payload: json.RawMessage(`{"query":"{ me { email } }"}`)})
		return c.must("next")
	}

	t.Run("bearer token in connection_init", func(t *testing.T) {
		c := dialWS(t, srv)
		c.send(wsMessage{Type: "connection_init", Payload: json.RawMessage(`{"Authorization":"Bearer ` + tn.Token + `"}`)})
		c.must("connection_ack")
		if m := subscribeMe(c); !strings.Contains(string(m.Payload), `"email":"socket@example.com"`) || m.ID != "1" {
			t.Fatalf("next = %s", m.Payload)
		}
		c.must("complete")
	})

	t.Run("lower-case authorization key", func(t *testing.T) {
		c := dialWS(t, srv)
		c.send(wsMessage{Type: "connection_init", Payload: json.RawMessage(`{"authorization":"bearer ` + tn.Token + `"}`)})
		c.must("connection_ack")
		if m := subscribeMe(c); !strings.Contains(string(m.Payload), "socket@example.com") {
			t.Fatalf("next = %s", m.Payload)
		}
	})

	t.Run("anonymous connection", func(t *testing.T) {
		c := dialWS(t, srv)
		c.send(wsMessage{Type: "connection_init"})
		c.must("connection_ack")
		m := subscribeMe(c)
		var body struct {
			Errors []gqlError
		}
		if err := json.Unmarshal(m.Payload, &body); err != nil || len(body.Errors) != 1 || body.Errors[0].Extensions.Code != "unauthenticated" {
			t.Fatalf("next = %s", m.Payload)
		}
	})

	for name, auth := range map[string]string{
		"bad token":     "Bearer not-a-token",
		"wrong scheme":  "Basic " + tn.Token,
		"missing token": "Bearer ",
		"no scheme":     tn.Token,
	} {
		t.Run(name, func(t *testing.T) {
			c := dialWS(t, srv)
			payload, _ := json.Marshal(map[string]string{"Authorization": auth})
			c.send(wsMessage{Type: "connection_init", Payload: payload})
			for {
				m, err := c.next()
				if err != nil {
					if got := websocket.CloseStatus(err); got != 4403 {
						t.Fatalf("closed with %d (%v), want 4403", got, err)
					}
					return
				}
				if m.Type == "connection_ack" {
					t.Fatalf("a bad token was acknowledged")
				}
			}
		})
	}
}
