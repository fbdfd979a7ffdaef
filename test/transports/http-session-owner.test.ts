/**
 * A session belongs to the user whose verified token opened it (spec 2025-11-25:
 * basic/security_best_practices § Session Hijacking): another user's token, or none, on its
 * `Mcp-Session-Id` gets the very answer an unknown session id gets, on GET, POST and DELETE; so
 * does a token on a session opened without one.
 */
import { afterEach, describe, expect, it } from "vitest";
import { MemoryEventStore } from "../../src/transports/http/event-store.js";
import { sessionOwner } from "../../src/transports/http/session-owner.js";
import { bothSides, openSession, type Side } from "./http-sides.js";
import { BOTH, nextMessage, sseEvents } from "./support.js";

let opened: Side[] = [];
afterEach(async () => {
  await Promise.all(opened.map((side) => side.close()));
  opened = [];
});

async function sides(): Promise<Side[]> {
  opened = await bothSides();
  return opened;
}

const BOB = { authorization: "Bearer bob" };
const ALICE = { authorization: "Bearer alice" };
const echo = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, method: "echo", params: { n: id } });
const progress = (key: string) => JSON.stringify({ jsonrpc: "2.0", id: 9, method: "progress", params: { key } });
const release = (key: string) => JSON.stringify({ jsonrpc: "2.0", id: 10, method: "release", params: { key } });
const announce = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, method: "announce", params: { count: 1 } });

function post(side: Side, sessionId: string, body: string, headers: Record<string, string>) {
  return side.send({
    method: "POST",
    headers: { accept: BOTH, "content-type": "application/json", "mcp-session-id": sessionId, ...headers },
    body,
  });
}
const get = (side: Side, sessionId: string, headers: Record<string, string>) =>
  side.send({ headers: { accept: "text/event-stream", "mcp-session-id": sessionId, ...headers } });
const del = (side: Side, sessionId: string, headers: Record<string, string>) =>
  side.send({ method: "DELETE", headers: { "mcp-session-id": sessionId, ...headers } });

/** Status and body, as a client sees them. */
async function answer(response: Promise<Response>) {
  const r = await response;
  return { status: r.status, body: await r.text() };
}

describe("Streamable HTTP server: a session is bound to the user who opened it", () => {
  for (const intruder of [
    { who: "another user's token", headers: ALICE },
    { who: "no token", headers: {} },
  ]) {
    it(`answers ${intruder.who} on a POST exactly as an unknown session, and the owner is still served`, async () => {
      for (const side of await sides()) {
        const sessionId = await openSession(side, BOB);
        const unknown = await answer(post(side, "no-such-session", echo(2), intruder.headers));
        const hijack = await answer(post(side, sessionId, echo(2), intruder.headers));
        expect(hijack, side.name).toEqual(unknown);
        expect(hijack.status, side.name).toBe(404);

        const own = await post(side, sessionId, echo(3), BOB);
        expect(own.status, side.name).toBe(200);
        expect(await own.text(), side.name).toContain('"result":{"echo":{"n":3}}');
      }
    });

    it(`answers ${intruder.who} on a GET as an unknown session; the owner's stream carries the owner's notices`, async () => {
      for (const side of await sides()) {
        const sessionId = await openSession(side, BOB);
        const unknown = await answer(get(side, "no-such-session", intruder.headers));
        const hijack = await answer(get(side, sessionId, intruder.headers));
        expect(hijack, side.name).toEqual(unknown);
        expect(hijack.status, side.name).toBe(404);

        const own = await get(side, sessionId, BOB);
        expect(own.status, side.name).toBe(200);
        const events = sseEvents(own);
        await (await post(side, sessionId, announce(4), BOB)).text();
        expect(await nextMessage(events), side.name).toMatchObject({ method: "notifications/announced" });
        await events.return(undefined);
      }
    });

    it(`answers ${intruder.who} on a DELETE as an unknown session and keeps the session; the owner can end it`, async () => {
      for (const side of await sides()) {
        const sessionId = await openSession(side, BOB);
        const unknown = await answer(del(side, "no-such-session", intruder.headers));
        const hijack = await answer(del(side, sessionId, intruder.headers));
        expect(hijack, side.name).toEqual(unknown);
        expect(hijack.status, side.name).toBe(404);
        expect(side.server.sessionCount, side.name).toBe(1);

        expect((await del(side, sessionId, BOB)).status, side.name).toBe(204);
        expect(side.server.sessionCount, side.name).toBe(0);
      }
    });
  }

  it("answers another user's resumption with Last-Event-ID as an unknown session, leaving the owner's stream to the owner", async () => {
    opened = await bothSides(() => ({ eventStore: new MemoryEventStore() }));
    for (const side of opened) {
      const sessionId = await openSession(side, BOB);
      const held = await post(side, sessionId, progress("k"), BOB);
      const events = sseEvents(held);
      const first = await nextMessage(events);
      expect(first, side.name).toMatchObject({ method: "notifications/progress" });
      const lastEventId = first.eventId ?? "";

      const resume = (headers: Record<string, string>) =>
        get(side, sessionId, { ...headers, "last-event-id": lastEventId });
      const unknown = await answer(get(side, "no-such-session", { ...ALICE, "last-event-id": lastEventId }));
      const hijack = await answer(resume(ALICE));
      expect(hijack, side.name).toEqual(unknown);
      expect(hijack.status, side.name).toBe(404);

      // The owner's connection was not taken over: the response still arrives on it.
      await (await post(side, sessionId, release("k"), BOB)).text();
      expect(await nextMessage(events), side.name).toMatchObject({ id: 9, result: { released: true } });
      await events.return(undefined);
      // The owner may resume; the stream has ended, so nothing is left after its last event.
      const own = await resume(BOB);
      expect(own.status, side.name).toBe(200);
      await own.body?.cancel();
    }
  });

  it("binds to issuer and subject, not to the token: the owner's refreshed token still serves", async () => {
    opened = await bothSides(undefined, (authorization) => {
      const [, user, issuer] = /^Bearer (\w+)@(\w+)/.exec(authorization ?? "") ?? [];
      return user === undefined
        ? undefined
        : { token: String(authorization), issuer: `https://${issuer}`, subject: user };
    });
    for (const side of opened) {
      const sessionId = await openSession(side, { authorization: "Bearer bob@as1 first" });
      const refreshed = await post(side, sessionId, echo(2), { authorization: "Bearer bob@as1 second" });
      expect(refreshed.status, side.name).toBe(200);
      await refreshed.text();
      // The same `sub` at another authorization server is another user.
      const elsewhere = await post(side, sessionId, echo(3), { authorization: "Bearer bob@as2 first" });
      expect(elsewhere.status, side.name).toBe(404);
      await elsewhere.text();
    }
  });

  it("answers a token on a session opened without one exactly as an unknown session", async () => {
    for (const side of await sides()) {
      const sessionId = await openSession(side);
      const unknown = await answer(post(side, "no-such-session", echo(2), ALICE));
      const joined = await answer(post(side, sessionId, echo(2), ALICE));
      expect(joined, side.name).toEqual(unknown);
      expect(joined.status, side.name).toBe(404);
      const stream = await answer(get(side, sessionId, ALICE));
      expect(stream.status, side.name).toBe(404);
    }
  });

  it("binds a token that names no user to that token, not to its OAuth client", async () => {
    // Token introspection may answer without `sub` (RFC 7662); two users of one client app are
    // then told apart only by their tokens.
    opened = await bothSides(undefined, (authorization) => {
      const user = /^Bearer (\w+)$/.exec(authorization ?? "")?.[1];
      return user === undefined ? undefined : { token: `token-of-${user}`, issuer: "https://as1", clientId: "app" };
    });
    for (const side of opened) {
      const sessionId = await openSession(side, BOB);
      const other = await answer(post(side, sessionId, echo(2), ALICE));
      expect(other.status, side.name).toBe(404);
      const own = await post(side, sessionId, echo(3), BOB);
      expect(own.status, side.name).toBe(200);
      expect(await own.text(), side.name).toContain('"result":{"echo":{"n":3}}');
    }
  });

  it("keeps no bearer token in the key it binds a session to", async () => {
    const token = "eyJhbGciOiJSUzI1NiJ9.secret-access-token";
    const owner = await sessionOwner({ token });
    expect(owner).toBeDefined();
    expect(owner).not.toContain("secret-access-token");
    expect(await sessionOwner({ token })).toBe(owner);
    expect(await sessionOwner({ token: `${token}2` })).not.toBe(owner);
  });

  it("leaves a session opened without a token open to requests without one", async () => {
    for (const side of await sides()) {
      const sessionId = await openSession(side);
      const response = await post(side, sessionId, echo(2), {});
      expect(response.status, side.name).toBe(200);
      await response.text();
    }
  });
});
