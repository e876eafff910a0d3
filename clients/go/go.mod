// The Plinth Go client: the generated package (./generated, package plinthapi) and the hand-written layer
// (package plinth) that adds retries, idempotency keys, pagination and one typed error. No dependencies
// outside the standard library. Published as the root of the repository github.com/plinth-dev/plinth-go
// (README.md: "Install"); here it lives in clients/go of the Plinth repository.
module github.com/plinth-dev/plinth-go

go 1.23
