package workflows

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"google.golang.org/protobuf/proto"

	"github.com/einvoice-ng/einvoice/model/secret"
)

// Metadata of an encrypted payload: the encoding says how to read it, the
// key id which key sealed it (so that keys can rotate while old histories
// stay readable).
const (
	EncodingEncrypted = "binary/encrypted"
	MetadataEncoding  = "encoding"
	MetadataKeyID     = "encryption-key-id"
	MetadataCipher    = "encryption-cipher"
	cipherAESGCM      = "AES256-GCM"
	// payloadPurpose binds sealed payloads to their use: a payload cannot be
	// passed off as another sealed value of the service.
	payloadPurpose = "temporal-payload"
)

// PayloadCodec encrypts every payload einvoice hands Temporal (workflow and
// activity inputs and results, query answers, and, through the failure
// converter of ClientOptions, failure messages) with AES-256-GCM, so that
// the Temporal server, its database and anyone reading histories (the Web
// UI, tctl) see no tenant data: no IRN, business id, QR payload or
// validation message. The key id goes into each payload's metadata; Decode
// accepts every key it was given, so a rotated-out key can still read old
// histories, and passes through payloads that were never encrypted.
type PayloadCodec struct {
	currentID string
	boxes     map[string]*secret.Box
}

var _ converter.PayloadCodec = (*PayloadCodec)(nil)

// PayloadKeyID is the public id of a payload key: the first 8 bytes of its
// SHA-256, in hex.
func PayloadKeyID(key []byte) string {
	sum := sha256.Sum256(key)
	return hex.EncodeToString(sum[:8])
}

// NewPayloadCodec builds a codec that encrypts with current and decrypts
// with current or any of old (each a 32-byte key).
func NewPayloadCodec(current []byte, old ...[]byte) (*PayloadCodec, error) {
	c := &PayloadCodec{boxes: map[string]*secret.Box{}}
	for i, k := range append([][]byte{current}, old...) {
		box, err := secret.NewBox(k)
		if err != nil {
			return nil, fmt.Errorf("temporal payload key %d: %w", i, err)
		}
		id := PayloadKeyID(k)
		c.boxes[id] = box
		if i == 0 {
			c.currentID = id
		}
	}
	return c, nil
}

// KeyID returns the id of the key Encode uses.
func (c *PayloadCodec) KeyID() string { return c.currentID }

// Encode implements converter.PayloadCodec.
func (c *PayloadCodec) Encode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(payloads))
	for i, p := range payloads {
		plain, err := proto.Marshal(p)
		if err != nil {
			return payloads, fmt.Errorf("encode payload: %w", err)
		}
		sealed, err := c.boxes[c.currentID].Seal(plain, payloadPurpose)
		if err != nil {
			return payloads, fmt.Errorf("encrypt payload: %w", err)
		}
		out[i] = &commonpb.Payload{
			Metadata: map[string][]byte{
				MetadataEncoding: []byte(EncodingEncrypted),
				MetadataKeyID:    []byte(c.currentID),
				MetadataCipher:   []byte(cipherAESGCM),
			},
			Data: sealed,
		}
	}
	return out, nil
}

// ErrUnknownPayloadKey is the error of a payload sealed with a key the codec
// does not hold.
var ErrUnknownPayloadKey = errors.New("temporal payload sealed with an unknown key")

// Decode implements converter.PayloadCodec.
func (c *PayloadCodec) Decode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(payloads))
	for i, p := range payloads {
		if string(p.GetMetadata()[MetadataEncoding]) != EncodingEncrypted {
			out[i] = p // written before payloads were encrypted
			continue
		}
		id := string(p.GetMetadata()[MetadataKeyID])
		box, ok := c.boxes[id]
		if !ok {
			return payloads, fmt.Errorf("%w (key id %q)", ErrUnknownPayloadKey, id)
		}
		plain, err := box.Open(p.GetData(), payloadPurpose)
		if err != nil {
			return payloads, fmt.Errorf("decrypt payload: %w", err)
		}
		var decoded commonpb.Payload
		if err := proto.Unmarshal(plain, &decoded); err != nil {
			return payloads, fmt.Errorf("decode payload: %w", err)
		}
		out[i] = &decoded
	}
	return out, nil
}

// ClientOptions sets the data and failure converters of every einvoice
// Temporal client (the api's starter, the worker's client, the dev
// server's): payloads go through codec, and failure messages and stack
// traces are moved into an encoded payload as well. A nil codec leaves the
// options as they are.
func ClientOptions(o client.Options, codec converter.PayloadCodec) client.Options {
	if codec == nil {
		return o
	}
	dc := converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), codec)
	o.DataConverter = dc
	o.FailureConverter = temporal.NewDefaultFailureConverter(temporal.DefaultFailureConverterOptions{
		DataConverter: dc, EncodeCommonAttributes: true,
	})
	return o
}
