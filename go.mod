module github.com/chordgo/chordgo

go 1.26.0

require (
	github.com/bits-and-blooms/bitset v1.29.0
	github.com/cockroachdb/apd/v3 v3.2.3
	github.com/dominikbraun/graph v0.23.0
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	golang.org/x/tools v0.52.0
)

require (
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/text v0.14.0 // indirect
)
