// The Plinth Go client: the generated package (./generated, package plinthapi) and the hand-written layer
// (package plinth) that adds retries, idempotency keys, pagination and one typed error. No dependencies
// outside the standard library.
module plinth.dev/clients/go

go 1.23
