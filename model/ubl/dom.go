package ubl

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/einvoice-ng/einvoice/model"
)

// The namespaces of a UBL 2.1 invoice and credit note.
const (
	NSInvoice    = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"
	NSCreditNote = "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"
	NSCAC        = "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"
	NSCBC        = "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"
	NSEXT        = "urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2"
)

// Bounds of a document the reader accepts, whatever the size of the
// request that carries it.
const (
	// MaxDepth bounds how deep elements nest (UBL needs about 10).
	MaxDepth = 40
	// MaxElements bounds how many elements a document holds.
	MaxElements = 50000
)

// node is one element of a parsed document. Name is its qualified name
// with UBL's usual prefixes (cbc:ID, cac:Party; the root without one);
// elements of other namespaces keep their local name behind "other:".
type node struct {
	Name     string
	Attrs    map[string]string
	Text     string
	Children []*node
	Parent   *node
	// index is the element's position among its parent's children of the
	// same name, from 1 (for paths).
	index int
	// used is set when the mapping read the element.
	used bool
}

var prefixes = map[string]string{NSCAC: "cac", NSCBC: "cbc", NSEXT: "ext"}

func qname(n xml.Name) string {
	switch n.Space {
	case NSInvoice, NSCreditNote:
		return n.Local
	}
	if p, ok := prefixes[n.Space]; ok {
		return p + ":" + n.Local
	}
	return "other:" + n.Local
}

// parse reads a UBL document into a tree. It never resolves entities or
// fetches anything (encoding/xml reads no DTD); the depth and element
// count are bounded.
func parse(data []byte) (*node, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	var root, cur *node
	count := 0
	var text strings.Builder
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, xmlError(d, err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			count++
			if count > MaxElements {
				return nil, model.Invalid(model.ProblemValueError, fmt.Sprintf("the document has more than %d elements", MaxElements), "body")
			}
			n := &node{Name: qname(t.Name), Parent: cur}
			for _, a := range t.Attr {
				if a.Name.Space == "xmlns" || a.Name.Local == "xmlns" || a.Name.Space != "" {
					continue
				}
				if n.Attrs == nil {
					n.Attrs = map[string]string{}
				}
				n.Attrs[a.Name.Local] = a.Value
			}
			if cur == nil {
				if root != nil {
					return nil, model.Invalid(model.ProblemValueError, "the document has more than one root element", "body")
				}
				if t.Name.Space != NSInvoice && t.Name.Space != NSCreditNote || t.Name.Local != "Invoice" && t.Name.Local != "CreditNote" {
					return nil, model.Invalid(model.ProblemValueError,
						"the document is not a UBL 2.1 Invoice or CreditNote (root {"+t.Name.Space+"}"+t.Name.Local+")", "body")
				}
				root = n
			} else {
				if depth(cur) >= MaxDepth {
					return nil, model.Invalid(model.ProblemValueError, fmt.Sprintf("elements nest deeper than %d levels", MaxDepth), "body")
				}
				for _, c := range cur.Children {
					if c.Name == n.Name {
						n.index++
					}
				}
				n.index++
				cur.Children = append(cur.Children, n)
			}
			cur = n
			text.Reset()
		case xml.CharData:
			if cur != nil && len(cur.Children) == 0 {
				text.Write(t)
			}
		case xml.EndElement:
			if cur != nil {
				if len(cur.Children) == 0 {
					cur.Text = strings.TrimSpace(text.String())
				}
				text.Reset()
				cur = cur.Parent
			}
		case xml.Directive:
			return nil, model.Invalid(model.ProblemValueError, "document type declarations are not accepted", "body")
		}
	}
	if root == nil {
		return nil, model.Invalid(model.ProblemValueError, "the body holds no XML element", "body")
	}
	return root, nil
}

func xmlError(d *xml.Decoder, err error) error {
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		line, col := d.InputPos()
		return model.Invalid(model.ProblemValueError, fmt.Sprintf("XML syntax error at line %d, column %d: %s", line, col, se.Msg), "body")
	}
	return model.Invalid(model.ProblemValueError, "the body is not well-formed XML: "+err.Error(), "body")
}

func depth(n *node) int {
	d := 0
	for ; n != nil; n = n.Parent {
		d++
	}
	return d
}

// path is the element's location: /Invoice/cac:InvoiceLine[2]/cbc:ID
// (the index only where the parent has several of the name).
func (n *node) path() string {
	if n == nil {
		return ""
	}
	if n.Parent == nil {
		return "/" + n.Name
	}
	seg := n.Name
	same := 0
	for _, c := range n.Parent.Children {
		if c.Name == n.Name {
			same++
		}
	}
	if same > 1 {
		seg += "[" + strconv.Itoa(n.index) + "]"
	}
	return n.Parent.path() + "/" + seg
}

// child is the first child of the name, or nil.
func (n *node) child(name string) *node {
	if n == nil {
		return nil
	}
	for _, c := range n.Children {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// all are the children of the name.
func (n *node) all(name string) []*node {
	if n == nil {
		return nil
	}
	var out []*node
	for _, c := range n.Children {
		if c.Name == name {
			out = append(out, c)
		}
	}
	return out
}

// at follows a path of child names.
func (n *node) at(names ...string) *node {
	for _, name := range names {
		n = n.child(name)
	}
	return n
}

// attr is an attribute's value, "" when absent.
func (n *node) attr(name string) string {
	if n == nil {
		return ""
	}
	return strings.TrimSpace(n.Attrs[name])
}

// markUsed marks the element and its ancestors read (an ancestor is then
// not reported dropped as a whole).
func (n *node) markUsed() {
	for ; n != nil; n = n.Parent {
		n.used = true
	}
}

// walk visits every element under n, n included, in document order.
func (n *node) walk(fn func(*node)) {
	fn(n)
	for _, c := range n.Children {
		c.walk(fn)
	}
}
