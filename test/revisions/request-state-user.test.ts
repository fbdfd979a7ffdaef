/**
 * A `requestState` is bound to its user by issuer and subject: two users whose issuer and subject,
 * written one after the other with a space, read the same (`https://idp.example/t alice` + `bob`
 * and `https://idp.example/t` + `alice bob`), or a user without an issuer and one with an empty
 * one, are still two users. Control: the state opens for the user it was issued to.
 */
import { describe, expect, it } from "vitest";
import { ProtocolError } from "../../src/jsonrpc/errors.js";
import { openRequestState, signRequestState } from "../../src/revisions/index.js";

const keys = { secret: new Uint8Array(32).fill(7), now: () => 1_000 };
const payload = { answers: { k: { method: "elicitation/create", result: { action: "accept" } } }, pending: [] };
const request = { method: "tools/call", params: { name: "deploy", arguments: {} } };

function issuedTo(user: { issuer?: string; subject: string }) {
  return signRequestState(keys, payload, { ...request, user, ttlMs: 60_000 });
}

describe("requestState and its user", () => {
  it("control: opens for the user it was issued to", () => {
    const user = { issuer: "https://idp.example/t", subject: "alice bob" };
    expect(openRequestState(keys, issuedTo(user), { ...request, user })).toEqual(payload);
  });

  it("attack: another user whose issuer and subject join to the same text is refused", () => {
    const pairs = [
      [
        { issuer: "https://idp.example/t", subject: "alice bob" },
        { issuer: "https://idp.example/t alice", subject: "bob" },
      ],
      [{ subject: "alice" }, { issuer: "", subject: "alice" }],
    ] as const;
    for (const [owner, other] of pairs) {
      const state = issuedTo(owner);
      expect(() => openRequestState(keys, state, { ...request, user: other }), JSON.stringify(other)).toThrow(
        ProtocolError,
      );
      expect(() => openRequestState(keys, state, { ...request, user: other })).toThrow(/another user/);
    }
  });
});
