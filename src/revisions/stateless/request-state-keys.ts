/**
 * The keys that seal `requestState` (revision 2026-07-28: basic/patterns/mrtr § Server
 * Requirements), checked once when a server starts: each 32 bytes (AES-256-GCM), each under an
 * id of its own, the first sealing and every one opening, so a fleet can rotate without
 * refusing the states already handed out.
 */
import { createHash } from "node:crypto";
import { SdkError } from "../../jsonrpc/errors.js";

/** One key of `requestState`: `id` names it in the sealed state's header; `key` is 32 bytes. */
export interface RequestStateKey {
  /** 1 to 64 characters of `A-Z a-z 0-9 . _ -`; unique within the list. Seen by clients. */
  id: string;
  /** 32 bytes (AES-256-GCM). */
  key: Uint8Array;
}

/** The checked keys of one server, with its clock. */
export interface RequestStateKeys {
  /** At least one; the first seals, every one opens. */
  keys: readonly RequestStateKey[];
  /** ms since the epoch; injectable for tests. */
  now: () => number;
}

const KEY_BYTES = 32;
const ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * The id of a key given without one: a digest of the key itself, so that every instance of a
 * fleet given the same bytes names them alike, whatever their place in the list.
 */
export function derivedKeyId(key: Uint8Array): string {
  return `k-${createHash("sha256").update("mcp-handoff requestState key id\n").update(key).digest("base64url").slice(0, 11)}`;
}

/**
 * `list` checked: each entry a `RequestStateKey` or bare 32 bytes (whose id is `derivedKeyId`).
 * @throws SdkError "INVALID_ARGUMENT" for an empty list, a key that is not 32 bytes, a bad id or
 *   two keys under one id; the message names the entry by its place, never the key.
 */
export function checkRequestStateKeys(list: readonly (RequestStateKey | Uint8Array)[]): RequestStateKey[] {
  if (list.length === 0) throw new SdkError("INVALID_ARGUMENT", "requestStateKeys needs at least one key");
  const seen = new Set<string>();
  return list.map((entry, index) => {
    const { id, key } = entry instanceof Uint8Array ? { id: derivedKeyId(entry), key: entry } : entry;
    if (!(key instanceof Uint8Array) || key.byteLength !== KEY_BYTES) {
      throw new SdkError("INVALID_ARGUMENT", `requestStateKeys[${index}] must be a key of exactly ${KEY_BYTES} bytes`);
    }
    if (typeof id !== "string" || !ID.test(id)) {
      throw new SdkError("INVALID_ARGUMENT", `requestStateKeys[${index}].id must be 1 to 64 of A-Z a-z 0-9 . _ -`);
    }
    if (seen.has(id)) throw new SdkError("INVALID_ARGUMENT", `requestStateKeys[${index}] repeats the key id "${id}"`);
    seen.add(id);
    return { id, key };
  });
}
