# Builds the einvoice binary (pure Go, no cgo; -tags prod: without the
# embedded Temporal server and UI that only `einvoice dev` uses) into a small
# runtime image.
FROM golang:1.26.8-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=docker
RUN CGO_ENABLED=0 go build -tags prod -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /out/einvoice ./cmd/einvoice

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/einvoice /usr/local/bin/einvoice
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/einvoice"]
CMD ["api"]
