/**
 * `notifications/resources/updated` in a fleet: the instance where the resource changed tells every
 * session the directory knows as subscribed, one it holds no replica of included, once each, and
 * no session that did not subscribe.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { McpClient } from "../../src/client/index.js";
import { type FleetRig, fleetRig, type Name, until } from "./support.js";

let rig: FleetRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const NOTES = "file:///notes";

interface Connected {
  client: McpClient;
  sessionId: string;
  updated: string[];
  logs: unknown[];
}

/** A client of `user`'s whose every request, its GET stream included, went to `name`. */
async function connectOn(r: FleetRig, name: Name, user: string): Promise<Connected> {
  r.steer(name);
  const client = await r.client({ protocolVersion: "2025-11-25" }, user);
  const updated: string[] = [];
  const logs: unknown[] = [];
  client.onResourceUpdated = (uri) => updated.push(uri);
  client.onLoggingMessage = (params) => logs.push(params.data);
  await until(() => (r.instances[name].lastEventIds.length > 0 ? true : undefined));
  return { client, sessionId: r.instances[name].mcp.sessions.at(-1)?.id as string, updated, logs };
}

/** Waits until a log message sent now by `name`'s replica reaches the client: what came before it has too. */
async function settled(r: FleetRig, name: Name, connected: Connected, marker: string): Promise<void> {
  await r.instances[name].mcp.sessions.find((s) => s.id === connected.sessionId)?.log("error", marker);
  await until(() => (connected.logs.includes(marker) ? true : undefined));
}

describe("fleet: resources/updated", () => {
  it("reaches a subscribed session the sending instance holds no replica of, once; a session that did not subscribe gets nothing", async () => {
    rig = await fleetRig();
    const bob = await connectOn(rig, "C", "bob");
    rig.steer(undefined);
    const alice = await connectOn(rig, "A", "alice");
    await alice.client.subscribeResource({ uri: NOTES });
    rig.steer(undefined);
    expect(rig.instances.C.mcp.sessions.some((s) => s.id === alice.sessionId)).toBe(false);

    await rig.instances.C.mcp.notifyResourceUpdated(NOTES);
    await until(() => (alice.updated.length > 0 ? true : undefined));
    await settled(rig, "A", alice, "alice's marker");
    await settled(rig, "C", bob, "bob's marker");
    expect(alice.updated).toEqual([NOTES]);
    expect(bob.updated).toEqual([]);
  });

  it("control: a session subscribed through one instance and held by the sender too gets it once", async () => {
    rig = await fleetRig();
    const alice = await connectOn(rig, "A", "alice");
    rig.steer("B");
    await alice.client.subscribeResource({ uri: NOTES });
    rig.steer("C");
    await alice.client.callTool({ name: "where" });
    rig.steer(undefined);
    await rig.instances.C.mcp.notifyResourceUpdated(NOTES);
    await until(() => (alice.updated.length > 0 ? true : undefined));
    await settled(rig, "A", alice, "alice's marker");
    expect(alice.updated).toEqual([NOTES]);
  });
});
