//! Step 27 of the scenario: the audit chain. A write, then the signed checkpoint; the whole chain paged with `after`
//! (oldest first) ends where the checkpoint says, at its `size` with its `hash`; the note's three lines name the same
//! chain and its signature line carries the public key's id. (Rust's standard library has no Ed25519: the signature
//! itself is checked by the Go, Java, Kotlin, TypeScript, Ruby and PHP scenarios.)

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use plinth::{Client, RequestOptions};

use crate::{business, fail, ok};

pub async fn run(client: &Client) {
    ok(client.accounts().create(business("US"), RequestOptions::default()).await);
    let checkpoint = ok(client.audit().retrieve_checkpoint().await).into_inner();
    let mut links = Vec::new();
    let mut after = 0;
    loop {
        let page = ok(client.audit().list_chain(Some(after), Some(7)).await).into_inner();
        links.extend(page.data);
        if !page.has_more {
            break;
        }
        after = links.last().map(|l| l.sequence).unwrap_or_else(|| fail("has_more with no link".into()));
    }
    for (i, link) in links.iter().enumerate() {
        check!(link.sequence as usize == i + 1, "link {i} has sequence {}", link.sequence);
    }
    check!(links.len() == checkpoint.size as usize, "{} links, checkpoint size {}", links.len(), checkpoint.size);
    let last = links.last().map(|l| l.hash.as_str()).unwrap_or_default();
    check!(last == checkpoint.hash, "last hash {last}, checkpoint {}", checkpoint.hash);

    let key = ok(client.audit().retrieve_public_key().await).into_inner();
    check!(key.algorithm == "ed25519", "algorithm {}", key.algorithm);
    check!(key.verifier_key.starts_with(&format!("plinth+{}+", key.key_id)), "verifier key {}", key.verifier_key);
    let note = &checkpoint.note;
    let end = note.find("\n\n").unwrap_or_else(|| fail(format!("no blank line in {note:?}"))) + 1;
    let text = &note[..end];
    let hash: Vec<u8> = (0..checkpoint.hash.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&checkpoint.hash[i..i + 2], 16).unwrap_or_else(|_| fail("hash not hex".into())))
        .collect();
    let lines: Vec<&str> = text.split('\n').take(3).collect();
    let size = checkpoint.size.to_string();
    let hash64 = STANDARD.encode(&hash);
    check!(lines == [checkpoint.origin.as_str(), size.as_str(), hash64.as_str()], "note text {text:?}");
    let prefix = format!("\u{2014} {} ", key.name);
    let line = note[end + 1..]
        .split('\n')
        .find(|l| l.starts_with(&prefix))
        .unwrap_or_else(|| fail(format!("no signature line of {} in {note:?}", key.name)));
    let signed = STANDARD.decode(&line[prefix.len()..]).unwrap_or_else(|e| fail(format!("signature base64: {e}")));
    let id: String = signed.iter().take(4).map(|b| format!("{b:02x}")).collect();
    check!(signed.len() == 68 && id == key.key_id, "signature line {line}");
    println!("ok 27 audit: the chain paged with after matches the signed checkpoint and its key");
}
