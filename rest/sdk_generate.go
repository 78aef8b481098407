package rest

// The Go SDK's generated part (rest/client, a module of its own):
// client/openapi.json is the v2 document as the server serves it,
// client/client.gen.go what oapi-codegen (pinned below) makes of it with
// client/oapi-codegen.yaml. CI regenerates both and fails when they differ
// from what is committed.
//go:generate go run ./internal/sdkgen doc v2 client/openapi.json
//go:generate go run -C client github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@v2.8.2 -config oapi-codegen.yaml openapi.json
//go:generate go run ./internal/sdkgen tidy client/client.gen.go
