/**
 * `notifications/elicitation/complete` in a fleet (2025-11-25, error -32042): the instance where
 * the user finishes the page stores the notice on the session's shared GET stream, through a
 * replica made from the directory when it holds none, so the client gets it once, even when the
 * instance that asked and held its GET stream died before the page was done, and only on the
 * session the hand-off belongs to.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { McpClient } from "../../src/client/index.js";
import type { FleetSessions } from "../../src/index.js";
import { UrlElicitationRequiredError } from "../../src/jsonrpc/errors.js";
import { type FleetRig, fleetRig, type Name, until } from "./support.js";

let rig: FleetRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const URL_MODE = { protocolVersion: "2025-11-25", capabilities: { elicitation: { url: {} } } } as const;
const userOf = (subject: string) => ({ issuer: "https://as.example", subject });

interface Connected {
  client: McpClient;
  sessionId: string;
  /** The `elicitationId` of every `notifications/elicitation/complete` the client received, in order. */
  completions: string[];
  /** The data of every log message the client received, in order. */
  logs: unknown[];
}

/** A client of `user`'s whose every request, its GET stream included, went to `name`. */
async function connectOn(r: FleetRig, name: Name, user: string): Promise<Connected> {
  r.steer(name);
  const before = r.instances[name].lastEventIds.length;
  const client = await r.client(URL_MODE, user);
  const completions: string[] = [];
  const logs: unknown[] = [];
  client.setNotificationHandler("notifications/elicitation/complete", (params) => {
    completions.push(String(params?.elicitationId));
  });
  client.onLoggingMessage = (params) => logs.push(params.data);
  await until(() => (r.instances[name].lastEventIds.length > before ? true : undefined));
  const sessionId = r.instances[name].mcp.sessions.at(-1)?.id as string;
  r.steer(undefined);
  return { client, sessionId, completions, logs };
}

/** Calls `repos` on `name`, which answers -32042; the id of its elicitation. */
async function handOff(r: FleetRig, name: Name, client: McpClient): Promise<string> {
  r.steer(name);
  const error = await client.callTool({ name: "repos" }).then(
    () => undefined,
    (e: unknown) => e,
  );
  r.steer(undefined);
  expect(error).toBeInstanceOf(UrlElicitationRequiredError);
  const id = (error as UrlElicitationRequiredError).elicitations[0]?.elicitationId;
  expect(id).toEqual(expect.any(String));
  return id as string;
}

/**
 * Waits until a log message sent now through `name`'s replica of the session reaches the client:
 * the GET stream keeps its order, so what was stored before it has arrived by then.
 */
async function settled(r: FleetRig, name: Name, connected: Connected, marker: string): Promise<void> {
  const session = r.instances[name].mcp.sessions.find((s) => s.id === connected.sessionId);
  expect(session, `${name} holds a replica`).toBeDefined();
  await session?.log("error", marker);
  await until(() => (connected.logs.includes(marker) ? true : undefined));
}

const holds = (r: FleetRig, name: Name, sessionId: string) =>
  r.instances[name].mcp.sessions.some((s) => s.id === sessionId);

describe("fleet: a hand-off's completion", () => {
  it("survives the death of the instance that asked and held the GET stream: stored where the page was done, replayed to the GET resumed on a third instance, once", async () => {
    rig = await fleetRig();
    // Bob's session on B: B has served the fleet, but holds no replica of alice's session.
    await connectOn(rig, "B", "bob");
    const alice = await connectOn(rig, "A", "alice");
    const id = await handOff(rig, "A", alice.client);
    expect(holds(rig, "B", alice.sessionId)).toBe(false);
    expect(holds(rig, "C", alice.sessionId)).toBe(false);

    const gets = rig.holdGets();
    rig.kill("A");
    // The client lost its GET stream and is reconnecting: no instance holds it now.
    await until(() => (gets.waiting > 0 ? true : undefined));
    await rig.instances.B.manager.complete(id, { user: userOf("alice") });
    expect(holds(rig, "B", alice.sessionId)).toBe(true);
    expect(alice.completions).toEqual([]);

    rig.steer("C");
    gets.release();
    await until(() => (alice.completions.length > 0 ? true : undefined));
    await settled(rig, "C", alice, "after the completion");
    expect(alice.completions).toEqual([id]);
    // The GET that got it resumed the stream on C.
    expect(rig.instances.C.lastEventIds).toEqual([expect.any(String)]);
  });

  it("is told by an instance that has served no request yet, given the fleet's sessions", async () => {
    rig = await fleetRig();
    const b = rig.instances.B;
    b.mcp.serveFleet(b.http.fleetSessions as FleetSessions);
    const alice = await connectOn(rig, "A", "alice");
    const id = await handOff(rig, "A", alice.client);
    const gets = rig.holdGets();
    rig.kill("A");
    await until(() => (gets.waiting > 0 ? true : undefined));
    expect(b.served).toEqual([]);
    await b.manager.complete(id, { user: userOf("alice") });
    rig.steer("C");
    gets.release();
    await until(() => (alice.completions.length > 0 ? true : undefined));
    await settled(rig, "C", alice, "after the completion");
    expect(alice.completions).toEqual([id]);
  });

  it("control: with every instance alive, the notice stored where the page was done reaches the GET stream held by the asking instance, once", async () => {
    rig = await fleetRig();
    await connectOn(rig, "B", "bob");
    const alice = await connectOn(rig, "A", "alice");
    const id = await handOff(rig, "A", alice.client);
    await rig.instances.B.manager.complete(id, { user: userOf("alice") });
    await until(() => (alice.completions.length > 0 ? true : undefined));
    await settled(rig, "A", alice, "after the completion");
    expect(alice.completions).toEqual([id]);
  });

  it("control: done on the instance that asked, it travels the same way, once", async () => {
    rig = await fleetRig();
    const alice = await connectOn(rig, "A", "alice");
    const id = await handOff(rig, "A", alice.client);
    await rig.instances.A.manager.complete(id, { user: userOf("alice") });
    await until(() => (alice.completions.length > 0 ? true : undefined));
    await settled(rig, "A", alice, "after the completion");
    expect(alice.completions).toEqual([id]);
  });

  it("attack: a completion for session S never reaches session T, neither from the page nor from a forged change naming T", async () => {
    rig = await fleetRig();
    // Bob's session T is held by B, where alice's page is done: the notice must not take T's way.
    const bob = await connectOn(rig, "B", "bob");
    const alice = await connectOn(rig, "A", "alice");
    const id = await handOff(rig, "A", alice.client);
    // A change on T's channel naming S's interaction: T's instance reads the store, which says S.
    await rig.instances.B.bus.publish(
      `mcp-handoff:interactions:${bob.sessionId}`,
      JSON.stringify({ id, status: "completed" }),
    );
    // Bob completing alice's hand-off is refused as for an unknown id, and changes nothing.
    await expect(rig.instances.B.manager.complete(id, { user: userOf("bob") })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await rig.instances.B.manager.complete(id, { user: userOf("alice") });
    await until(() => (alice.completions.length > 0 ? true : undefined));
    await settled(rig, "A", alice, "alice's marker");
    await settled(rig, "B", bob, "bob's marker");
    expect(alice.completions).toEqual([id]);
    expect(bob.completions).toEqual([]);
  });
});
