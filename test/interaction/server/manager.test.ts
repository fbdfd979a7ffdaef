/**
 * `InteractionManager` on its own: ids, deadlines on an injected clock, who may complete, what the
 * bus carries, and waiting for completion.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { InteractionError } from "../../../src/interaction/server/index.js";
import { SdkError } from "../../../src/jsonrpc/errors.js";
import { CONNECT_MESSAGE, CONNECT_URL, createManager, LOCAL_USER } from "./support.js";

const ALICE = { issuer: "https://auth.example.com", subject: "alice" };
const input = { url: CONNECT_URL, message: CONNECT_MESSAGE, user: ALICE, sessionId: "session-a" };

async function refusal(work: Promise<unknown>): Promise<string> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InteractionError);
  return (error as InteractionError).code;
}

afterEach(() => {
  vi.useRealTimers();
});

describe("create", () => {
  it("stores a pending interaction with 128 random bits of id, for ten minutes by default", async () => {
    const { manager, clock } = createManager();
    const a = await manager.create({ ...input, purpose: { provider: "github" } });
    const b = await manager.create(input);
    expect(a.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(Buffer.from(a.id, "base64url")).toHaveLength(16);
    expect(a.id).not.toBe(b.id);
    expect(a).toMatchObject({
      status: "pending",
      user: ALICE,
      sessionId: "session-a",
      purpose: { provider: "github" },
    });
    expect(a.expiresAt - clock.time).toBe(600_000);
    const short = createManager({ ttlMs: 30_000 });
    expect((await short.manager.create(input)).expiresAt - short.clock.time).toBe(30_000);
  });

  it("refuses a URL that is not absolute http(s), a URL in the message, and a missing user", async () => {
    const { manager } = createManager();
    const attempts = [
      { ...input, url: "/connect" },
      { ...input, url: "javascript:alert(1)" },
      { ...input, message: "Go to https://evil.example/login" },
      { ...input, message: "Open evil.com/login" },
      { ...input, user: { issuer: "", subject: "alice" } },
      { ...input, sessionId: "" },
    ];
    for (const attempt of attempts) {
      const error = await manager.create(attempt).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SdkError);
      expect((error as SdkError).code).toBe("INVALID_ARGUMENT");
    }
  });
});

describe("complete", () => {
  it("completes for the same issuer and subject and tells the owning session's channel only", async () => {
    const { manager, bus } = createManager();
    const created = await manager.create(input);
    const done = await manager.complete(created.id, { user: { ...ALICE } });
    expect(done.status).toBe("completed");
    expect(bus.published).toEqual([
      {
        channel: "mcp-handoff:interactions:session-a",
        message: JSON.stringify({ id: created.id, status: "completed" }),
      },
    ]);
  });

  it("refuses another user, by subject or by issuer, exactly as an unknown id, and changes nothing", async () => {
    const { manager, bus } = createManager();
    const created = await manager.create(input);
    const bob = { issuer: ALICE.issuer, subject: "bob" };
    const elsewhere = { issuer: "https://other-auth.example.com", subject: "alice" };
    const unknown = await manager.complete("nope", { user: bob }).catch((e: unknown) => e);
    for (const user of [bob, elsewhere]) {
      const error = await manager.complete(created.id, { user }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InteractionError);
      expect({ ...(error as InteractionError), message: (error as Error).message }).toEqual({
        ...(unknown as InteractionError),
        message: (unknown as Error).message,
      });
      expect((error as InteractionError).code).toBe("NOT_FOUND");
    }
    // Even once it is no longer pending, another user learns nothing of its state.
    await manager.recordAnswer(created.id, "decline");
    expect(await refusal(manager.complete(created.id, { user: bob }))).toBe("NOT_FOUND");
    expect((await manager.get(created.id))?.status).toBe("declined");
    expect(bus.published.filter((p) => p.message.includes('"completed"'))).toEqual([]);
  });

  it("claims the completion before `commit` runs and announces it only after: a second completion meanwhile is refused", async () => {
    const { manager, bus } = createManager();
    const created = await manager.create(input);
    let second: string | undefined;
    const done = await manager.complete(created.id, {
      user: ALICE,
      commit: async (claimed) => {
        expect(claimed).toMatchObject({ id: created.id, status: "completed" });
        second = await refusal(manager.complete(created.id, { user: ALICE }));
        expect(bus.published).toEqual([]);
      },
    });
    expect(second).toBe("NOT_PENDING");
    expect(done.status).toBe("completed");
    expect(bus.published).toHaveLength(1);
  });

  it("a claim made before the deadline stands when `commit` ends after it", async () => {
    const { manager, clock } = createManager();
    const created = await manager.create(input);
    await manager.complete(created.id, {
      user: ALICE,
      commit: async () => clock.advance(600_001),
    });
    expect((await manager.get(created.id))?.status).toBe("completed");
  });

  it("withdraws the claim when `commit` fails: nothing is announced, the interaction is as it was (or expired), the error comes back", async () => {
    const { manager, bus, clock } = createManager();
    for (const answered of [false, true]) {
      const created = await manager.create(input);
      if (answered) await manager.recordAnswer(created.id, "accept");
      bus.published.length = 0;
      const failure = new Error("vault unavailable");
      const error = await manager
        .complete(created.id, { user: ALICE, commit: () => Promise.reject(failure) })
        .catch((e: unknown) => e);
      expect(error).toBe(failure);
      expect((await manager.get(created.id))?.status).toBe(answered ? "accepted" : "pending");
      expect(bus.published).toEqual([]);
      // The user can try again.
      expect((await manager.complete(created.id, { user: ALICE })).status).toBe("completed");
    }
    const late = await manager.create(input);
    bus.published.length = 0;
    await expect(
      manager.complete(late.id, {
        user: ALICE,
        commit: async () => {
          clock.advance(600_001);
          throw new Error("vault unavailable");
        },
      }),
    ).rejects.toThrow("vault unavailable");
    expect((await manager.get(late.id))?.status).toBe("expired");
    expect(bus.published).toEqual([]);
  });

  it("refuses once the deadline has passed (injected clock), and changes nothing", async () => {
    const { manager, bus, clock } = createManager();
    const created = await manager.create(input);
    clock.advance(600_000);
    expect(await refusal(manager.complete(created.id, { user: ALICE }))).toBe("EXPIRED");
    expect((await manager.get(created.id))?.status).toBe("expired");
    expect(bus.published).toEqual([]);
  });

  it("refuses an unknown id, a second completion and a declined interaction", async () => {
    const { manager } = createManager();
    expect(await refusal(manager.complete("nope", { user: ALICE }))).toBe("NOT_FOUND");
    const once = await manager.create(input);
    await manager.complete(once.id, { user: ALICE });
    expect(await refusal(manager.complete(once.id, { user: ALICE }))).toBe("NOT_PENDING");
    const declined = await manager.create(input);
    await manager.recordAnswer(declined.id, "decline");
    expect(await refusal(manager.complete(declined.id, { user: ALICE }))).toBe("NOT_PENDING");
  });

  it("completes an accepted interaction; an answer is recorded only while pending", async () => {
    const { manager } = createManager();
    const created = await manager.create(input);
    expect((await manager.recordAnswer(created.id, "accept"))?.status).toBe("accepted");
    expect(await manager.recordAnswer(created.id, "decline")).toBeUndefined();
    expect((await manager.complete(created.id, { user: ALICE })).status).toBe("completed");
  });
});

describe("decline (the user's answer on the page)", () => {
  it("declines a pending or accepted interaction for its user, ends a wait with DECLINED, and tells its session", async () => {
    const { manager, bus } = createManager();
    const pending = await manager.create(input);
    const waiting = refusal(manager.waitForCompletion(pending.id));
    await vi.waitFor(() => expect(bus.listeners()).toBe(1));
    expect((await manager.decline(pending.id, { user: { ...ALICE } })).status).toBe("declined");
    expect(await waiting).toBe("DECLINED");
    expect(bus.published).toContainEqual({
      channel: "mcp-handoff:interactions:session-a",
      message: JSON.stringify({ id: pending.id, status: "declined" }),
    });
    const accepted = await manager.create(input);
    await manager.recordAnswer(accepted.id, "accept");
    expect((await manager.decline(accepted.id, { user: ALICE })).status).toBe("declined");
  });

  it("refuses another user as an unknown id, a finished or expired one, and changes nothing", async () => {
    const { manager, clock } = createManager();
    const created = await manager.create(input);
    expect(await refusal(manager.decline(created.id, { user: { ...ALICE, subject: "bob" } }))).toBe("NOT_FOUND");
    expect(await refusal(manager.decline("nope", { user: ALICE }))).toBe("NOT_FOUND");
    expect((await manager.get(created.id))?.status).toBe("pending");
    await manager.complete(created.id, { user: ALICE });
    expect(await refusal(manager.decline(created.id, { user: ALICE }))).toBe("NOT_PENDING");
    expect((await manager.get(created.id))?.status).toBe("completed");
    const late = await manager.create(input);
    clock.advance(600_000);
    expect(await refusal(manager.decline(late.id, { user: ALICE }))).toBe("EXPIRED");
  });

  it("keeps the client's self-declared name, without control characters", async () => {
    const { manager } = createManager();
    const named = await manager.create({ ...input, clientName: "Claude\u202E Desktop\n" });
    expect(named.clientName).toBe("Claude Desktop");
    expect("clientName" in (await manager.create(input))).toBe(false);
  });
});

describe("waitForCompletion", () => {
  it("resolves when the interaction completes, and stops listening", async () => {
    const { manager, bus } = createManager();
    const created = await manager.create(input);
    const waiting = manager.waitForCompletion(created.id);
    await vi.waitFor(() => expect(bus.listeners()).toBe(1));
    await manager.complete(created.id, { user: ALICE });
    expect((await waiting).status).toBe("completed");
    expect(bus.listeners()).toBe(0);
  });

  it("rejects DECLINED, NOT_FOUND, and EXPIRED at the deadline", async () => {
    vi.useFakeTimers();
    const { manager, clock } = createManager();
    const declined = await manager.create(input);
    const waitingDeclined = manager.waitForCompletion(declined.id);
    const expiring = await manager.create(input);
    const waitingExpiry = manager.waitForCompletion(expiring.id);
    const outcomes = Promise.all([refusal(waitingDeclined), refusal(waitingExpiry)]);
    await vi.advanceTimersByTimeAsync(0);
    await manager.recordAnswer(declined.id, "decline");
    clock.advance(600_000);
    await vi.advanceTimersByTimeAsync(600_000);
    expect(await outcomes).toEqual(["DECLINED", "EXPIRED"]);
    expect(await refusal(manager.waitForCompletion("nope"))).toBe("NOT_FOUND");
  });

  it("rejects with the signal's reason when aborted", async () => {
    const { manager, bus } = createManager();
    const created = await manager.create(input);
    const controller = new AbortController();
    const waiting = manager.waitForCompletion(created.id, controller.signal);
    await vi.waitFor(() => expect(bus.listeners()).toBe(1));
    controller.abort(new Error("gone"));
    await expect(waiting).rejects.toThrow("gone");
    await vi.waitFor(() => expect(bus.listeners()).toBe(0));
  });
});

describe("userFor", () => {
  it("takes issuer and subject from authorization, the local user only without authorization", () => {
    const { manager } = createManager();
    expect(manager.userFor({ token: "t", issuer: ALICE.issuer, subject: "alice" })).toEqual(ALICE);
    expect(manager.userFor({ token: "t", issuer: ALICE.issuer })).toBeUndefined();
    expect(manager.userFor({ token: "t", subject: "alice" })).toBeUndefined();
    expect(manager.userFor(undefined)).toEqual(LOCAL_USER);
    const { manager: remote } = createManager({ unsafeLocalUser: undefined });
    expect(remote.userFor(undefined)).toBeUndefined();
  });
});

describe("sweeping expired interactions", () => {
  const timeouts = () => process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;

  it("removes, on its own timer, each interaction kept past its deadline for keepExpiredMs, and no other", async () => {
    vi.useFakeTimers();
    const { manager, store, clock } = createManager({ sweepIntervalMs: 60_000, keepExpiredMs: 300_000 });
    const old = await manager.create(input);
    clock.advance(300_000);
    const fresh = await manager.create(input);
    clock.advance(600_000); // `old` expired 300,000 ms ago; `fresh` is only just expired
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await store.get(old.id)).toBeUndefined();
    expect((await store.get(fresh.id))?.status).toBe("expired");
    clock.advance(300_000);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await store.get(fresh.id)).toBeUndefined();
    await manager.close();
  });

  it("stops sweeping on close(), and its timer never keeps the process alive", async () => {
    const before = timeouts();
    const real = createManager({ sweepIntervalMs: 1_000 });
    expect(timeouts()).toBe(before); // the sweep's timer is unref'd
    await real.manager.close();

    vi.useFakeTimers();
    const { manager, store, clock } = createManager({ sweepIntervalMs: 1_000, keepExpiredMs: 0 });
    expect(vi.getTimerCount()).toBe(1);
    const kept = await manager.create(input);
    await manager.close();
    expect(vi.getTimerCount()).toBe(0);
    clock.advance(600_000);
    await vi.advanceTimersByTimeAsync(10_000);
    expect((await store.get(kept.id))?.status).toBe("expired");
  });

  it("reports a sweep that fails and keeps sweeping", async () => {
    vi.useFakeTimers();
    const failures: unknown[] = [];
    const { manager, store, clock } = createManager({
      sweepIntervalMs: 1_000,
      keepExpiredMs: 0,
      onerror: (error) => failures.push(error),
    });
    const created = await manager.create(input);
    clock.advance(600_000);
    const purge = vi.spyOn(store, "purgeExpired").mockRejectedValueOnce(new Error("disk full"));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(failures).toEqual([expect.objectContaining({ message: "disk full" })]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(purge).toHaveBeenCalledTimes(2);
    expect(await store.get(created.id)).toBeUndefined();
    await manager.close();
  });
});
