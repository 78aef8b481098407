package pdfa

import (
	"bytes"
	"encoding/xml"
	"time"
)

func esc(s string) string {
	var b bytes.Buffer
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}

// xmpPacket is the document's XMP metadata: PDF/A identification (part 3,
// conformance B) and the Info dictionary's entries in their XMP
// equivalents (dc:title, dc:creator, xmp:CreatorTool, pdf:Producer and the
// dates).
func xmpPacket(m Meta) []byte {
	date := func(t time.Time) string { return t.Format("2006-01-02T15:04:05") }
	var b bytes.Buffer
	b.WriteString("<?xpacket begin=\"\xef\xbb\xbf\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n")
	b.WriteString(`<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">` + "\n")
	b.WriteString(`<rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/"><pdfaid:part>3</pdfaid:part><pdfaid:conformance>B</pdfaid:conformance></rdf:Description>` + "\n")
	b.WriteString(`<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:format>application/pdf</dc:format>`)
	b.WriteString(`<dc:title><rdf:Alt><rdf:li xml:lang="x-default">` + esc(m.Title) + `</rdf:li></rdf:Alt></dc:title>`)
	if m.Author != "" {
		b.WriteString(`<dc:creator><rdf:Seq><rdf:li>` + esc(m.Author) + `</rdf:li></rdf:Seq></dc:creator>`)
	}
	b.WriteString("</rdf:Description>\n")
	b.WriteString(`<rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/"><xmp:CreatorTool>` + esc(m.Creator) + `</xmp:CreatorTool>`)
	b.WriteString(`<xmp:CreateDate>` + date(m.Created) + `</xmp:CreateDate><xmp:ModifyDate>` + date(m.Modified) + `</xmp:ModifyDate></rdf:Description>` + "\n")
	b.WriteString(`<rdf:Description rdf:about="" xmlns:pdf="http://ns.adobe.com/pdf/1.3/"><pdf:Producer>` + esc(m.Producer) + `</pdf:Producer></rdf:Description>` + "\n")
	b.WriteString("</rdf:RDF></x:xmpmeta>\n<?xpacket end=\"w\"?>")
	return b.Bytes()
}
