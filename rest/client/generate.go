package einvoice

// The generated part of the SDK: openapi.json is the v2 document as the
// server serves it, client.gen.go what oapi-codegen (pinned below) makes
// of it with oapi-codegen.yaml. CI regenerates both and fails when they
// differ from what is committed.
//go:generate go run ./internal/generate doc v2 openapi.json
//go:generate go run github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@v2.8.2 -config oapi-codegen.yaml openapi.json
//go:generate go run ./internal/generate tidy client.gen.go
