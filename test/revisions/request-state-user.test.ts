/**
 * A `requestState` is bound to its user by issuer and subject: two users whose issuer and subject,
 * written one after the other with a space, read the same (`https://idp.example/t alice` + `bob`
 * and `https://idp.example/t` + `alice bob`), or a user without an issuer and one with an empty
 * one, are still two users. Control: the state opens for the user it was issued to.
 */
import { describe, expect, it } from "vitest";
import { ProtocolError } from "../../src/jsonrpc/errors.js";
import { openRequestState, sealRequestState } from "../../src/revisions/index.js";

const keys = { keys: [{ id: "k1", key: new Uint8Array(32).fill(7) }], now: () => 1_000 };
const payload = { answers: { k: { method: "elicitation/create", result: { action: "accept" } } }, pending: [] };
const request = { method: "tools/call", params: { name: "deploy", arguments: {} } };

function issuedTo(user: { issuer?: string; subject: string }) {
  return sealRequestState(keys, payload, { ...request, user, ttlMs: 60_000 });
}

describe("requestState and its user", () => {
  it("control: opens for the user it was issued to", async () => {
    const user = { issuer: "https://idp.example/t", subject: "alice bob" };
    await expect(openRequestState(keys, await issuedTo(user), { ...request, user })).resolves.toEqual(payload);
  });

  it("attack: another user whose issuer and subject join to the same text is refused", async () => {
    const pairs = [
      [
        { issuer: "https://idp.example/t", subject: "alice bob" },
        { issuer: "https://idp.example/t alice", subject: "bob" },
      ],
      [{ subject: "alice" }, { issuer: "", subject: "alice" }],
    ] as const;
    for (const [owner, other] of pairs) {
      const state = await issuedTo(owner);
      const refusal = openRequestState(keys, state, { ...request, user: other });
      await expect(refusal, JSON.stringify(other)).rejects.toThrow(ProtocolError);
      await expect(refusal).rejects.toThrow(/another user/);
      await expect(openRequestState(keys, state, { ...request, user: owner })).resolves.toEqual(payload);
    }
  });
});
