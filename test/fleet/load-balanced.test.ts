/**
 * Three instance processes behind HAProxy (round robin, no stickiness), sharing Redis and
 * PostgreSQL: the full demo's hand-off in both eras, its steps served by three different instances
 * (the tool call by A, the browser's connect page and callback by B, the retry by C) and an
 * instance SIGKILLed midway; the control: an instance whose requestStateKeys are not the shared
 * ones refuses the requestState another signed. Skipped with the reason outside CI when haproxy, Redis or PostgreSQL
 * is missing; in CI that fails.
 */
import { describe, expect, it } from "vitest";
import { runFleetDemo } from "../../examples/fleet/demo.js";
import { fleetServicesAnswer } from "../support/fleet-services.js";
import { databaseUrl, redisUrl } from "../support/services.js";

const available = await fleetServicesAnswer();

const ITEMS = "alice-repo-1, alice-repo-2";

describe.skipIf(!available)("three instances behind HAProxy", () => {
  it("2025-11-25: the session survives the SIGKILL of the instance holding its GET stream, and the retry returns alice's items", async () => {
    const lines: string[] = [];
    const result = await runFleetDemo((line) => lines.push(line), {
      redisUrl: redisUrl(),
      databaseUrl: databaseUrl(),
      pinned: true,
      revision: "2025-11-25",
    });
    expect(result).toMatchObject({ text: ITEMS, isError: false, protocolVersion: "2025-11-25", killed: "A" });
    const { client, browser } = result;

    // One initialize for the whole run: the instances that never answered it served the session.
    expect(client.of("POST", "initialize")).toHaveLength(1);
    const sessionId = client.served[1]?.sessionId;
    expect(sessionId).toEqual(expect.any(String));
    expect(client.served.slice(1).every((s) => s.sessionId === sessionId)).toBe(true);

    // The call on A, the browser on B, the retry on C.
    const calls = client.of("POST", "tools/call");
    expect(calls.map((c) => [c.servedBy, c.status])).toEqual([
      ["A", 200],
      ["C", 200],
    ]);
    const atConnect = browser.steps.filter((s) => s.path.startsWith("/connect/"));
    expect(atConnect[0]?.servedBy).toBe("B");
    expect(atConnect.find((s) => s.path === "/connect/callback/items")).toMatchObject({ servedBy: "B", status: 200 });

    // The GET stream was on A, A was killed, and the stream resumed elsewhere where it had stopped.
    const streams = client.of("GET").filter((s) => s.status === 200);
    expect(streams[0]).toMatchObject({ servedBy: "A", lastEventId: null });
    expect(streams[1]?.servedBy).not.toBe("A");
    expect(streams[1]?.lastEventId).toEqual(expect.stringContaining("standalone"));
    const resumedAt = streams[1] === undefined ? -1 : client.served.indexOf(streams[1]);
    expect(resumedAt).toBeGreaterThan(0);
    expect(client.served.slice(resumedAt).filter((s) => s.servedBy === "A")).toEqual([]);

    // The resumed stream started right after the last event the first one delivered, and no event
    // came twice: notifications/elicitation/complete reached the resumed stream once.
    const firstIds = streams[0]?.events.map((e) => e.id) ?? [];
    expect(firstIds.length).toBeGreaterThan(0);
    expect(streams[1]?.lastEventId).toBe(firstIds.at(-1));
    const ids = streams.flatMap((s) => s.events.map((e) => e.id)).filter((id) => id !== undefined);
    expect(new Set(ids).size).toBe(ids.length);
    const completions = streams
      .flatMap((s) => s.events)
      .filter((e) => e.method === "notifications/elicitation/complete");
    expect(completions).toHaveLength(1);
    expect(streams[1]?.events).toContainEqual(completions[0]);
    expect(result.statuses).toEqual(["pending", "accepted", "completed"]);
    expect(result.storedSecret).toEqual(expect.any(String));
    expect(lines.join("\n")).not.toContain(result.storedSecret as string);
  }, 120_000);

  it("2025-11-25 on round robin alone (no pins): the GET holder SIGKILLed mid-hand-off, the same session goes on and the retry returns alice's items", async () => {
    const lines: string[] = [];
    const result = await runFleetDemo((line) => lines.push(line), {
      redisUrl: redisUrl(),
      databaseUrl: databaseUrl(),
      revision: "2025-11-25",
    });
    expect(result).toMatchObject({ text: ITEMS, isError: false, protocolVersion: "2025-11-25" });
    const { client, browser } = result;
    expect(client.of("POST", "initialize")).toHaveLength(1);
    const sessionId = client.served[1]?.sessionId;
    expect(sessionId).toEqual(expect.any(String));
    expect(client.served.slice(1).every((s) => s.sessionId === sessionId)).toBe(true);
    // The first GET stream was on the instance killed; another took the stream up where it stopped.
    const streams = client.of("GET").filter((s) => s.status === 200);
    expect(streams[0]?.servedBy).toBe(result.killed);
    expect(streams[1]?.servedBy).not.toBe(result.killed);
    expect(streams[1]?.lastEventId).toBe(streams[0]?.events.map((e) => e.id).at(-1));
    const completions = streams
      .flatMap((s) => s.events)
      .filter((e) => e.method === "notifications/elicitation/complete");
    expect(completions).toHaveLength(1);
    // Round robin spread the steps: more than one instance served them.
    const servers = new Set([...client.served, ...browser.steps].map((s) => s.servedBy).filter(Boolean));
    expect(servers.size).toBeGreaterThan(1);
    expect(lines.join("\n")).not.toContain(result.storedSecret as string);
  }, 120_000);

  it("2026-07-28: a requestState signed by A is verified by C after A is SIGKILLed, and the call succeeds", async () => {
    const lines: string[] = [];
    const result = await runFleetDemo((line) => lines.push(line), {
      redisUrl: redisUrl(),
      databaseUrl: databaseUrl(),
      pinned: true,
      revision: "2026-07-28",
    });
    expect(result).toMatchObject({ text: ITEMS, isError: false, protocolVersion: "2026-07-28", killed: "A" });
    const { client, browser } = result;
    expect(client.of("POST", "initialize")).toEqual([]);
    expect(client.of("GET")).toEqual([]);
    const calls = client.of("POST", "tools/call");
    expect(calls[0]?.servedBy).toBe("A");
    // Every retry after the hand-off went to C; the last one returned the items.
    expect(calls.slice(1).map((c) => c.servedBy)).toEqual(calls.slice(1).map(() => "C"));
    expect(calls.length).toBeGreaterThanOrEqual(2);
    expect(browser.steps.find((s) => s.path === "/connect/callback/items")).toMatchObject({
      servedBy: "B",
      status: 200,
    });
    expect(lines).toContain("fleet    SIGKILL instance A, which started the hand-off; the browser goes on at once");
    expect(result.storedSecret).toEqual(expect.any(String));
    expect(lines.join("\n")).not.toContain(result.storedSecret as string);
  }, 120_000);

  it("2026-07-28, the control: C with requestStateKeys of its own refuses the requestState A signed", async () => {
    const lines: string[] = [];
    const run = runFleetDemo((line) => lines.push(line), {
      redisUrl: redisUrl(),
      databaseUrl: databaseUrl(),
      pinned: true,
      revision: "2026-07-28",
      keysOfTheirOwn: ["C"],
    });
    await expect(run).rejects.toMatchObject({ code: -32602 });
    expect(lines).toContain("fleet    SIGKILL instance A, which started the hand-off; the browser goes on at once");
    expect(lines.some((line) => line.includes("the retried tools/call served by instance C returned"))).toBe(false);
  }, 120_000);
});
