// Command note_check verifies a Plinth checkpoint (docs/api.md#verifying-the-history) with the Go module proxy's own
// signed-note code, golang.org/x/mod/sumdb/note: an implementation of C2SP signed notes that is not ours. It reads
// the verifier key (the `verifier_key` of GET /v1/audit/public_key) as its first argument and the note on standard
// input; it prints the origin, size and hash lines and exits 0, or prints why and exits 1.
package main

import (
	"fmt"
	"io"
	"os"

	"golang.org/x/mod/sumdb/note"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: note_check VERIFIER_KEY < NOTE")
		os.Exit(2)
	}
	verifier, err := note.NewVerifier(os.Args[1])
	if err != nil {
		fmt.Println("verifier key refused:", err)
		os.Exit(1)
	}
	text, err := io.ReadAll(os.Stdin)
	if err != nil {
		fmt.Println("reading the note:", err)
		os.Exit(1)
	}
	n, err := note.Open(text, note.VerifierList(verifier))
	if err != nil {
		fmt.Println("note refused:", err)
		os.Exit(1)
	}
	fmt.Print(n.Text)
}
