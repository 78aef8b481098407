package model

import (
	"bytes"
	"encoding/json"
)

// NullableInt is a field of a partial update that can be left out (Set
// false: keep the value), set to null (Set, Value nil: back to the
// default) or set to a number.
type NullableInt struct {
	Set   bool
	Value *int
}

// UnmarshalJSON records that the field was given, null or a number.
func (n *NullableInt) UnmarshalJSON(b []byte) error {
	n.Set, n.Value = true, nil
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		return nil
	}
	var v int
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	n.Value = &v
	return nil
}

// MarshalJSON writes the value, or null.
func (n NullableInt) MarshalJSON() ([]byte, error) {
	if n.Value == nil {
		return []byte("null"), nil
	}
	return json.Marshal(*n.Value)
}
