module github.com/toolscript/toolscript

go 1.26.8

require (
	github.com/stretchr/testify v1.12.1
	github.com/traefik/yaegi v0.16.2-0.20260209085605-fcb76d1ece0c
	go.uber.org/goleak v1.3.0
	golang.org/x/sync v0.25.0
)

require go.yaml.in/yaml/v3 v3.0.5 // indirect
