/**
 * The sealed `requestState` (spec 2026-07-28: basic/patterns/mrtr § Server Requirements): a
 * compact JWE the client cannot read, opened only under a key the server holds, and only for the
 * user, the request and before the expiry it was sealed for. Each attack has its control: the
 * untouched state opens.
 */
import { describe, expect, it } from "vitest";
import { ProtocolError, SdkError } from "../../src/jsonrpc/errors.js";
import {
  checkRequestStateKeys,
  derivedKeyId,
  openRequestState,
  questionDigest,
  type RequestStateKey,
  type RequestStatePayload,
  sealRequestState,
} from "../../src/revisions/index.js";

const OLD: RequestStateKey = { id: "2026-06", key: new Uint8Array(32).fill(1) };
const NEW: RequestStateKey = { id: "2026-07", key: new Uint8Array(32).fill(2) };
const alice = { issuer: "https://idp.example", subject: "alice" };
const request = { method: "tools/call", params: { name: "transfer", arguments: { to: "bob", cents: 500 } } };
const payload: RequestStatePayload = {
  answers: {
    confirm: {
      method: "elicitation/create",
      result: { action: "accept", content: { note: "rent-for-march" } },
      question: questionDigest("elicitation/create", { message: "Send 5.00 to bob?" }),
    },
  },
  pending: [{ key: "second-factor", method: "elicitation/create", interaction: "ix-7f3a" }],
  handoff: "ix-7f3a",
};

function keyring(keys: readonly RequestStateKey[], now = 1_000) {
  return { keys, now: () => now };
}

async function sealed(keys = [OLD], ttlMs = 60_000) {
  return sealRequestState(keyring(keys), payload, { ...request, user: alice, ttlMs });
}

async function refusal(opening: Promise<unknown>): Promise<ProtocolError> {
  const error = await opening.then(
    () => new Error("opened"),
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ProtocolError);
  expect((error as ProtocolError).code).toBe(-32602);
  return error as ProtocolError;
}

describe("a sealed requestState", () => {
  it("control: opens for its user and request, under the key that sealed it", async () => {
    const state = await sealed();
    await expect(openRequestState(keyring([OLD]), state, { ...request, user: alice })).resolves.toEqual(payload);
  });

  it("is opaque: no part of it, decoded, holds a field or value of the state", async () => {
    const state = await sealed();
    const decoded = state
      .split(".")
      .map((part) => Buffer.from(part, "base64url").toString("latin1"))
      .join("\n");
    const secrets = ["answers", "pending", "handoff", "rent-for-march", "ix-7f3a", "second-factor", "confirm"];
    for (const word of [...secrets, "alice", "idp.example", "transfer", "bob", "elicitation", "usr", "exp"]) {
      expect(decoded, word).not.toContain(word);
      expect(state, word).not.toContain(word);
    }
    // The header says how it is sealed and under which key id, nothing more.
    const header = JSON.parse(Buffer.from(state.split(".")[0] ?? "", "base64url").toString("utf8"));
    expect(header).toEqual({ alg: "dir", enc: "A256GCM", kid: OLD.id });
  });

  it("attack: one byte changed in any part (header, IV, ciphertext, tag) is refused as altered", async () => {
    const state = await sealed();
    const parts = state.split(".");
    for (const index of [0, 2, 3, 4]) {
      const bytes = Buffer.from(parts[index] ?? "", "base64url");
      bytes[bytes.length >> 1] = (bytes[bytes.length >> 1] ?? 0) ^ 0x01;
      const tampered = parts.map((part, at) => (at === index ? bytes.toString("base64url") : part)).join(".");
      expect(tampered).not.toBe(state);
      const error = await refusal(openRequestState(keyring([OLD]), tampered, { ...request, user: alice }));
      expect(error.message, `part ${index}`).toBe(
        "Invalid params: requestState was not issued by this server or was altered",
      );
    }
  });

  it("attack: another user, even with the same subject at another issuer, is refused", async () => {
    const state = await sealed();
    for (const user of [
      { ...alice, subject: "mallory" },
      { issuer: "https://evil.example", subject: "alice" },
      undefined,
    ]) {
      const error = await refusal(openRequestState(keyring([OLD]), state, { ...request, user }));
      expect(error.message).toContain("another user");
    }
  });

  it("attack: the same state on another tool or with other arguments is refused", async () => {
    const state = await sealed();
    const others = [
      { ...request, params: { ...request.params, name: "transfer_all" } },
      { ...request, params: { ...request.params, arguments: { to: "mallory", cents: 500 } } },
      { method: "prompts/get", params: request.params },
    ];
    for (const other of others) {
      const error = await refusal(openRequestState(keyring([OLD]), state, { ...other, user: alice }));
      expect(error.message).toContain("another request");
    }
    // What a retry legitimately changes is not part of the request.
    const retry = { ...request.params, _meta: { progressToken: 3 }, inputResponses: { x: {} }, requestState: state };
    await expect(openRequestState(keyring([OLD]), state, { ...request, params: retry, user: alice })).resolves.toEqual(
      payload,
    );
  });

  it("expires: opens until its ttl has passed, then is refused", async () => {
    const state = await sealed([OLD], 60_000);
    await expect(openRequestState(keyring([OLD], 60_999), state, { ...request, user: alice })).resolves.toEqual(
      payload,
    );
    const error = await refusal(openRequestState(keyring([OLD], 61_000), state, { ...request, user: alice }));
    expect(error.message).toContain("expired");
  });

  it("rotates: sealed under the old key, it opens once a new key is put first, and is refused once the old one is gone", async () => {
    const state = await sealed([OLD]);
    await expect(openRequestState(keyring([NEW, OLD]), state, { ...request, user: alice })).resolves.toEqual(payload);
    // What is sealed after the rotation names the new key, and opens on an instance not yet rotated only if it holds it.
    const after = await sealed([NEW, OLD]);
    expect(JSON.parse(Buffer.from(after.split(".")[0] ?? "", "base64url").toString("utf8")).kid).toBe(NEW.id);
    await expect(openRequestState(keyring([NEW]), after, { ...request, user: alice })).resolves.toEqual(payload);
    const error = await refusal(openRequestState(keyring([NEW]), state, { ...request, user: alice }));
    expect(error.message).toContain("altered");
  });

  it("attack: a state sealed by a foreign key under a known key id is refused", async () => {
    const foreign = { id: OLD.id, key: new Uint8Array(32).fill(9) };
    const state = await sealed([foreign]);
    const error = await refusal(openRequestState(keyring([OLD]), state, { ...request, user: alice }));
    expect(error.message).toContain("altered");
    await expect(openRequestState(keyring([foreign]), state, { ...request, user: alice })).resolves.toEqual(payload);
  });
});

describe("requestState keys", () => {
  it("control: keys of 32 bytes under distinct ids are taken as given, a bare key under a stable derived id", () => {
    const bare = new Uint8Array(32).fill(5);
    expect(checkRequestStateKeys([NEW, OLD, bare])).toEqual([NEW, OLD, { id: derivedKeyId(bare), key: bare }]);
    expect(derivedKeyId(Uint8Array.from(bare))).toBe(derivedKeyId(bare));
    expect(derivedKeyId(bare)).not.toBe(derivedKeyId(OLD.key));
  });

  it("refuses a key that is not 32 bytes, a repeated or bad id, or no key, with an SdkError naming none of the key", () => {
    const cases: [string, (RequestStateKey | Uint8Array)[], RegExp][] = [
      [
        "short",
        [{ id: "a", key: new Uint8Array(31).fill(0x41) }],
        /requestStateKeys\[0\] must be a key of exactly 32 bytes/,
      ],
      ["long", [OLD, new Uint8Array(33).fill(0x41)], /requestStateKeys\[1\] must be a key of exactly 32 bytes/],
      ["repeated", [OLD, { id: OLD.id, key: NEW.key }], /repeats the key id "2026-06"/],
      ["bad id", [{ id: "a b", key: NEW.key }], /requestStateKeys\[0\]\.id/],
      ["none", [], /at least one key/],
    ];
    for (const [why, list, message] of cases) {
      let caught: unknown;
      try {
        checkRequestStateKeys(list);
      } catch (error) {
        caught = error;
      }
      expect(caught, why).toBeInstanceOf(SdkError);
      expect((caught as SdkError).code, why).toBe("INVALID_ARGUMENT");
      expect((caught as SdkError).message, why).toMatch(message);
      expect((caught as SdkError).message, why).not.toContain("AAAA");
    }
  });
});
