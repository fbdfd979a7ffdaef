/**
 * 2025-11-25 sessions in a fleet of three instances behind a round-robin front: any request of a
 * session on any instance, changes made through one instance seen by the others, server messages
 * reaching the GET stream wherever it is held, the end of a session everywhere, and no way into
 * another caller's session.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { LoggingMessageParams } from "../../src/client/index.js";
import { type FleetRig, fleetRig, type Name, textOf, until } from "./support.js";

let rig: FleetRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const held = (r: FleetRig) =>
  (Object.keys(r.instances) as Name[]).filter((name) => r.instances[name].http.sessionCount > 0);

describe("fleet: a session on every instance", () => {
  it("serves tools/call on instances that did not answer initialize, with no second initialize", async () => {
    rig = await fleetRig();
    rig.pin("A");
    const client = await rig.client({ protocolVersion: "2025-11-25" });
    const names = new Set<string>();
    for (let i = 0; i < 6; i++) names.add(textOf(await client.callTool({ name: "where" })));
    expect(names).toEqual(new Set(["A", "B", "C"]));
    expect(held(rig)).toEqual(["A", "B", "C"]);
    const initializes = Object.values(rig.instances)
      .flatMap((i) => i.served)
      .filter((m) => m === "POST");
    expect(initializes.length).toBeGreaterThanOrEqual(7);
  });

  it("a level set through one instance filters the log messages another one sends to the GET stream", async () => {
    rig = await fleetRig();
    rig.pin("A");
    const client = await rig.client({ protocolVersion: "2025-11-25" });
    const logs: LoggingMessageParams[] = [];
    client.onLoggingMessage = (params) => logs.push(params);
    // Every instance holds a replica, one of them the GET stream.
    for (let i = 0; i < 3; i++) await client.callTool({ name: "where" });
    await until(() => (held(rig as FleetRig).length === 3 ? true : undefined));
    rig.pin("B");
    await client.setLoggingLevel({ level: "error" });
    const c = rig.instances.C.mcp.sessions[0];
    await until(() => (c?.logLevel === "error" ? true : undefined));
    await c?.log("info", "filtered on C");
    await c?.log("error", "sent by C");
    await until(() => (logs.length > 0 ? true : undefined));
    expect(logs.map((l) => l.data)).toEqual(["sent by C"]);
  });

  it("resources/subscribe through one instance: resources/updated from another reaches the GET stream", async () => {
    rig = await fleetRig();
    rig.pin("A");
    const client = await rig.client({ protocolVersion: "2025-11-25" });
    const updated: string[] = [];
    client.onResourceUpdated = (uri) => updated.push(uri);
    for (let i = 0; i < 3; i++) await client.callTool({ name: "where" });
    rig.pin("B");
    await client.subscribeResource({ uri: "file:///notes" });
    // C's replica learnt it from the bus; a replica made later learns it from the directory.
    await until(() => (rig?.instances.C.mcp.sessions[0] !== undefined ? true : undefined));
    await rig.instances.C.mcp.notifyResourceUpdated("file:///notes");
    await until(() => (updated.length > 0 ? true : undefined));
    expect(updated).toEqual(["file:///notes"]);
  });

  it("a message sent before any GET stream opened waits in the shared store for the GET on any instance", async () => {
    rig = await fleetRig();
    rig.pin("A");
    const client = await rig.client({ protocolVersion: "2025-11-25" });
    const logs: unknown[] = [];
    client.onLoggingMessage = (params) => logs.push(params.data);
    await rig.instances.A.mcp.sessions[0]?.log("warning", "before the GET");
    await client.callTool({ name: "where" });
    await until(() => (logs.length > 0 ? true : undefined));
    expect(logs).toEqual(["before the GET"]);
  });

  it("DELETE through one instance ends the session on every instance", async () => {
    rig = await fleetRig();
    rig.pin("A");
    const client = await rig.client({ protocolVersion: "2025-11-25" });
    for (let i = 0; i < 3; i++) await client.callTool({ name: "where" });
    const sessionId = rig.instances.A.mcp.sessions[0]?.id as string;
    await until(() => (held(rig as FleetRig).length === 3 ? true : undefined));
    rig.pin("B");
    await client.close();
    await until(() => (held(rig as FleetRig).length === 0 ? true : undefined));
    for (const name of ["A", "B", "C"] as const) {
      rig.pin(name);
      const response = await fetch(rig.url, {
        method: "POST",
        headers: {
          accept: "application/json, text/event-stream",
          "content-type": "application/json",
          authorization: "Bearer alice",
          "mcp-session-id": sessionId,
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" }),
      });
      expect(response.status, name).toBe(404);
    }
  });
});

describe("fleet: another caller's session id", () => {
  const post = (r: FleetRig, sessionId: string, user: string, name: Name) => {
    r.pin(name);
    return fetch(r.url, {
      method: "POST",
      headers: {
        accept: "application/json, text/event-stream",
        "content-type": "application/json",
        authorization: `Bearer ${user}`,
        "mcp-session-id": sessionId,
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" }),
    });
  };

  it("gets the 404 of an unknown session on an instance that holds no replica; the owner is served there", async () => {
    rig = await fleetRig();
    rig.pin("A");
    await rig.client({ protocolVersion: "2025-11-25" });
    const sessionId = rig.instances.A.mcp.sessions[0]?.id as string;
    // The client's own traffic after initialize (its notification, its GET stream) may have made
    // replicas: the intruder goes to an instance without one, so a replica made for it would show.
    await vi.waitFor(() =>
      expect(Object.values(rig?.instances ?? {}).some((i) => i.served.includes("GET"))).toBe(true),
    );
    const names = ["B", "C"] as const;
    const bare = names.find((name) => rig?.instances[name].http.sessionCount === 0);
    expect(bare).toBeDefined();
    const target = bare as Name;
    const intruder = await post(rig, sessionId, "mallory", target);
    expect(intruder.status).toBe(404);
    expect(rig.instances[target].http.sessionCount).toBe(0);
    const unknown = await post(rig, "no-such-session", "alice", target);
    expect(unknown.status).toBe(404);
    const owner = await post(rig, sessionId, "alice", target);
    expect(owner.status).toBe(200);
    expect(await owner.text()).toContain('"tools"');
    const again = await post(rig, sessionId, "mallory", target);
    expect(again.status).toBe(404);
  });
  it("an intruder's request racing the owner's to an instance without a replica: the owner is served, the intruder gets 404", async () => {
    rig = await fleetRig();
    rig.pin("A");
    await rig.client({ protocolVersion: "2025-11-25" });
    const sessionId = rig.instances.A.mcp.sessions[0]?.id as string;
    await vi.waitFor(() =>
      expect(Object.values(rig?.instances ?? {}).some((i) => i.served.includes("GET"))).toBe(true),
    );
    const target = (["B", "C"] as const).find((name) => rig?.instances[name].http.sessionCount === 0) as Name;
    expect(target).toBeDefined();
    const { http } = rig.instances[target];
    // The directory every instance shares: the first look-up (the intruder's) waits for a gate.
    const directory = (http as unknown as { fleet: { directory: { get(id: string): Promise<unknown> } } }).fleet
      .directory;
    const get = directory.get.bind(directory);
    let calls = 0;
    let open: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    directory.get = async (id) => {
      calls += 1;
      if (calls === 1) await gate;
      return get(id);
    };
    const ask = (user: string) =>
      http.handle(
        new Request("http://mcp.example/mcp", {
          method: "POST",
          headers: {
            accept: "application/json, text/event-stream",
            "content-type": "application/json",
            "mcp-session-id": sessionId,
            "mcp-protocol-version": "2025-11-25",
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" }),
        }),
        { authInfo: { token: `token-of-${user}`, issuer: "https://as.example", subject: user } as never },
      );
    try {
      const intruder = ask("mallory");
      const owner = ask("alice");
      // Until the owner's request has looked the session up too (or has had every chance to).
      for (let turn = 0; turn < 2_000 && calls < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
      open();
      expect((await intruder).status).toBe(404);
      const answer = await owner;
      expect(answer.status).toBe(200);
      expect(await answer.text()).toContain('"tools"');
    } finally {
      open();
      delete (directory as { get?: unknown }).get;
    }
  });
});
