package main

// Step 27 of the conformance scenario (clients/README.md): the audit chain. A write, then the signed checkpoint; the
// whole chain paged with After (oldest first) ends where the checkpoint says, at its size with its hash; the note's
// three lines name the same chain, and its signature verifies with the public key (crypto/ed25519).

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	plinth "github.com/plinth-dev/plinth-go"
	plinthapi "github.com/plinth-dev/plinth-go/generated"
)

func auditStep(client *plinth.Client) {
	must(client.Accounts.Create(ctx, plinthapi.CreateAccountRequest{Type: "business", Country: "US"}))
	checkpoint := must(client.Audit.RetrieveCheckpoint(ctx))
	var links []plinthapi.AuditChainLink
	for after := int64(0); ; {
		page := must(client.Audit.ListChain(ctx, plinth.ListAuditChainParams{After: after, Limit: 7}))
		links = append(links, page.Data...)
		if !page.HasMore {
			break
		}
		after = page.Data[len(page.Data)-1].Sequence
	}
	for i, link := range links {
		check(link.Sequence == int64(i+1), "link %d has sequence %d", i, link.Sequence)
	}
	check(len(links) == int(checkpoint.Size), "%d links, checkpoint size %d", len(links), checkpoint.Size)
	check(len(links) > 0 && links[len(links)-1].Hash == checkpoint.Hash, "last hash, checkpoint %s", checkpoint.Hash)

	key := must(client.Audit.RetrievePublicKey(ctx))
	check(key.Algorithm == "ed25519", "algorithm %s", key.Algorithm)
	check(strings.HasPrefix(key.VerifierKey, "plinth+"+key.KeyId+"+"), "verifier key %s", key.VerifierKey)
	note := checkpoint.Note
	end := strings.Index(note, "\n\n")
	check(end > 0, "no blank line in %q", note)
	text := note[:end+1]
	hash, err := hex.DecodeString(checkpoint.Hash)
	check(err == nil, "hash %s: %v", checkpoint.Hash, err)
	want := []string{checkpoint.Origin, strconv.Itoa(int(checkpoint.Size)), base64.StdEncoding.EncodeToString(hash)}
	check(strings.Join(strings.Split(text, "\n")[:3], "\n") == strings.Join(want, "\n"), "note text %q", text)
	prefix := "\u2014 " + key.Name + " "
	var signed []byte
	for _, line := range strings.Split(note[end+2:], "\n") {
		if strings.HasPrefix(line, prefix) {
			signed, err = base64.StdEncoding.DecodeString(line[len(prefix):])
			check(err == nil, "signature line %q: %v", line, err)
		}
	}
	check(len(signed) == 68 && hex.EncodeToString(signed[:4]) == key.KeyId, "no signature of key %s in %q", key.KeyId, note)
	public, err := base64.StdEncoding.DecodeString(key.PublicKey)
	check(err == nil && len(public) == ed25519.PublicKeySize, "public key %q", key.PublicKey)
	check(ed25519.Verify(ed25519.PublicKey(public), []byte(text), signed[4:]), "the note's signature does not verify")
	fmt.Println("ok 27 audit: the chain paged with after matches the signed checkpoint and its key")
}
