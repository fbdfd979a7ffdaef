/**
 * Renewal across instances, written once for every engine of the lock, the vault and the notes:
 * two `CredentialBroker`s are two instances of one server sharing them, in front of a real token
 * endpoint that rotates refresh tokens. Call `runRenewalAcrossInstances` with the engine's
 * makers; each maker is called once per instance and must give an object that sees what the
 * other instance's object wrote.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CredentialBroker } from "../../src/connect/index.js";
import { renewalKey } from "../../src/connect/renewal.js";
import type { SdkError } from "../../src/jsonrpc/errors.js";
import type { UserRef } from "../../src/model/identity.js";
import { InteractionRequired, type RequestContext } from "../../src/server/index.js";
import {
  type CredentialVault,
  type ExpiringNotes,
  type KeyedLock,
  type LockOptions,
  MemoryKeyedLock,
} from "../../src/stores/index.js";
import { startTokenEndpoint, type TokenEndpoint } from "./token-endpoint.js";

export interface RenewalEngines {
  makeLock(): KeyedLock;
  makeVault(): CredentialVault;
  /** Given the brokers' clock, which an engine with its own clock (Redis' TTLs) may ignore. */
  makeNotes(now: () => number): ExpiringNotes;
  /** Whether notes lapse in real time only (then the test waits for the lapse). */
  notesLapseInRealTime?: boolean;
  close?(): Promise<void>;
}

/** A lock that counts the `withLock` calls made through it, as they are made. */
class CountingLock implements KeyedLock {
  calls = 0;
  constructor(
    private readonly inner: KeyedLock,
    private readonly arrivals: { total: number; wake: () => void },
  ) {}
  withLock<T>(key: string, options: LockOptions, task: () => Promise<T>): Promise<T> {
    this.calls += 1;
    this.arrivals.total += 1;
    this.arrivals.wake();
    return this.inner.withLock(key, options, task);
  }
}

const OUTAGE_MS = 300;

export function runRenewalAcrossInstances(name: string, open: () => Promise<RenewalEngines> | RenewalEngines): void {
  describe(`renewal across instances: ${name}`, () => {
    let endpoint: TokenEndpoint;
    let engines: RenewalEngines;
    let serial = 0;
    beforeAll(async () => {
      endpoint = await startTokenEndpoint();
      engines = await open();
    });
    afterAll(async () => {
      await endpoint?.close();
      await engines?.close?.();
    });
    afterEach(() => {
      endpoint.mode = "rotate";
    });

    /** Two instances and a user of their own (so tests never share a grant), with alice's expired credential stored. */
    async function fleet(
      options: { separateLocks?: boolean; waitMs?: number; issuer?: string; subject?: string } = {},
    ) {
      serial += 1;
      const user: UserRef = {
        issuer: options.issuer ?? `https://login-${serial}.example`,
        subject: options.subject ?? "alice",
      };
      const clock = { time: Date.now() };
      const now = () => clock.time;
      const arrivals = { total: 0, wake: () => {}, waiters: [] as Array<{ n: number; resolve: () => void }> };
      arrivals.wake = () => {
        for (const waiter of arrivals.waiters.filter((w) => arrivals.total >= w.n)) waiter.resolve();
      };
      const sharedLock = engines.makeLock();
      const instance = () => {
        // The positive control's instances each have a lock of their own, whatever the engine.
        const locks = new CountingLock(options.separateLocks ? new MemoryKeyedLock() : sharedLock, arrivals);
        const vault = engines.makeVault();
        const broker = new CredentialBroker({
          service: { userFor: () => user },
          vault,
          baseUrl: "https://mcp.example",
          providers: { github: { issuer: endpoint.issuer, clientId: "mcp" } },
          locks,
          notes: engines.makeNotes(now),
          renewalOutageMs: OUTAGE_MS,
          ...(options.waitMs === undefined ? {} : { renewalWaitMs: options.waitMs }),
          now,
        });
        const require = () => broker.require("github", {}, { authInfo: undefined } as RequestContext);
        return { broker, locks, vault, require };
      };
      const a = instance();
      const b = instance();
      const issued = endpoint.issue();
      await a.vault.put(user, {
        provider: "github",
        secret: issued.accessToken,
        refreshToken: issued.refreshToken,
        expiresAt: clock.time - 1_000,
        updatedAt: clock.time - 3_601_000,
      });
      /** Resolves once `n` lock calls were made, by both instances together. */
      const lockCalls = (n: number) =>
        arrivals.total >= n ? Promise.resolve() : new Promise<void>((resolve) => arrivals.waiters.push({ n, resolve }));
      return { user, clock, a, b, issued, lockCalls };
    }

    /** Both instances renew at once: A's refresh is held at the provider until B waits on the lock too. */
    async function bothAtOnce(f: Awaited<ReturnType<typeof fleet>>) {
      const before = endpoint.refreshGrants;
      const held = endpoint.hold();
      const fromA = f.a.require();
      const fromB = f.b.require();
      await held.received(before + 1);
      await f.lockCalls(2);
      held.release();
      return Promise.allSettled([fromA, fromB]);
    }

    it("two instances renewing at once make one refresh; both get the new token and the vault keeps the rotated refresh token", async () => {
      const f = await fleet();
      const before = endpoint.refreshGrants;
      const [fromA, fromB] = await bothAtOnce(f);
      expect(endpoint.refreshGrants - before).toBe(1);
      expect(fromA.status).toBe("fulfilled");
      expect(fromB.status).toBe("fulfilled");
      const a = (fromA as PromiseFulfilledResult<{ secret: string }>).value;
      const b = (fromB as PromiseFulfilledResult<{ secret: string }>).value;
      expect(a.secret).not.toBe(f.issued.accessToken);
      expect(b.secret).toBe(a.secret);
      const stored = await f.b.vault.get(f.user, "github");
      expect(stored?.secret).toBe(a.secret);
      expect(stored?.refreshToken).toMatch(/^refresh-token-/);
      expect(stored?.refreshToken).not.toBe(f.issued.refreshToken);
      // The rotated refresh token is the one the provider takes next time.
      f.clock.time += 2 * 3_600_000;
      const later = await f.b.require();
      expect(endpoint.refreshGrants - before).toBe(2);
      expect(later.secret).not.toBe(a.secret);
    });

    it("callers within one instance share its one lock call", async () => {
      const f = await fleet();
      const before = endpoint.refreshGrants;
      const held = endpoint.hold();
      const calls = [f.a.require(), f.a.require(), f.a.require()];
      await held.received(before + 1);
      held.release();
      const secrets = new Set((await Promise.all(calls)).map((credential) => credential.secret));
      expect(secrets.size).toBe(1);
      expect(f.a.locks.calls).toBe(1);
      expect(endpoint.refreshGrants - before).toBe(1);
    });

    it("positive control: instances that do not share a lock both refresh, and the second use of the refresh token costs the grant", async () => {
      const f = await fleet({ separateLocks: true });
      const before = endpoint.refreshGrants;
      const held = endpoint.hold();
      const fromA = f.a.require();
      const fromB = f.b.require();
      await held.received(before + 2);
      held.release();
      const outcomes = await Promise.allSettled([fromA, fromB]);
      expect(endpoint.refreshGrants - before).toBe(2);
      expect(outcomes.some((o) => o.status === "rejected" && o.reason instanceof InteractionRequired)).toBe(true);
    });

    it("a refresh the provider refuses is sent once; the credential is gone and both instances hand the user off", async () => {
      const f = await fleet();
      endpoint.mode = "refuse";
      const before = endpoint.refreshGrants;
      const outcomes = await bothAtOnce(f);
      expect(endpoint.refreshGrants - before).toBe(1);
      for (const outcome of outcomes) {
        expect(outcome.status).toBe("rejected");
        expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(InteractionRequired);
      }
      expect(await f.a.vault.get(f.user, "github")).toBeUndefined();
    });

    it("a refresh the provider does not answer is sent once; both instances fail clearly and the credential is kept", async () => {
      const f = await fleet();
      endpoint.mode = "outage";
      const before = endpoint.refreshGrants;
      const outcomes = await bothAtOnce(f);
      expect(endpoint.refreshGrants - before).toBe(1);
      for (const outcome of outcomes) {
        expect(outcome.status).toBe("rejected");
        const reason = (outcome as PromiseRejectedResult).reason as SdkError;
        expect(reason.code).toBe("TRANSPORT_ERROR");
        expect(reason.message).toMatch(/Could not renew the github credential: the provider did not answer/);
        expect(reason.message).not.toContain(f.issued.refreshToken);
      }
      // Within the outage window nobody asks the provider again, even once it is back.
      endpoint.mode = "rotate";
      await expect(f.b.require()).rejects.toMatchObject({ code: "TRANSPORT_ERROR" });
      expect(endpoint.refreshGrants - before).toBe(1);
      expect((await f.a.vault.get(f.user, "github"))?.refreshToken).toBe(f.issued.refreshToken);
      // Positive control: once the window has passed, the next call renews.
      f.clock.time += OUTAGE_MS;
      if (engines.notesLapseInRealTime) await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS + 50));
      const renewed = await f.a.require();
      expect(endpoint.refreshGrants - before).toBe(2);
      expect(renewed.secret).not.toBe(f.issued.accessToken);
    });

    it("during an outage an access token that still works is used, until it expires", async () => {
      const f = await fleet();
      const still = { ...(await f.a.vault.get(f.user, "github")), expiresAt: f.clock.time + 10_000 };
      await f.a.vault.put(f.user, still as Parameters<CredentialVault["put"]>[1]);
      endpoint.mode = "outage";
      const before = endpoint.refreshGrants;
      expect((await f.a.require()).secret).toBe(f.issued.accessToken);
      expect((await f.b.require()).secret).toBe(f.issued.accessToken);
      expect(endpoint.refreshGrants - before).toBe(1);
      f.clock.time += 10_000;
      await expect(f.b.require()).rejects.toMatchObject({ code: "TRANSPORT_ERROR" });
    });

    it("an instance that cannot have the lock in time fails with LOCK_TIMEOUT naming the provider; the provider is not asked", async () => {
      const f = await fleet({ waitMs: 50 });
      const lock = engines.makeLock();
      let letGo = () => {};
      const holding = new Promise<void>((resolve) => {
        letGo = resolve;
      });
      let held = () => {};
      const taken = new Promise<void>((resolve) => {
        held = resolve;
      });
      const holder = lock.withLock(renewalKey(f.user, "github"), { leaseMs: 60_000, waitMs: 1_000 }, async () => {
        held();
        await holding;
      });
      await taken;
      const before = endpoint.refreshGrants;
      const failure = (await f.a.require().catch((error) => error)) as SdkError;
      expect(failure.code).toBe("LOCK_TIMEOUT");
      expect(failure.message).toMatch(/github credential is being renewed elsewhere/);
      expect(endpoint.refreshGrants).toBe(before);
      letGo();
      await holder;
      // Positive control: with the lock free, the same call renews.
      expect((await f.a.require()).secret).not.toBe(f.issued.accessToken);
    });

    it("attack: a subject with a colon cannot take the lock of another user whose parts join to the same text", async () => {
      // Joined with ":" both would be "refresh:https://login.example:x:y:github".
      const victim = await fleet({ issuer: "https://login.example:x", subject: "y", waitMs: 50 });
      const f = await fleet({ issuer: "https://login.example", subject: "x:y", waitMs: 50 });
      expect(renewalKey(f.user, "github")).not.toBe(renewalKey(victim.user, "github"));
      const lock = engines.makeLock();
      let letGo = () => {};
      const holding = new Promise<void>((resolve) => {
        letGo = resolve;
      });
      let held = () => {};
      const taken = new Promise<void>((resolve) => {
        held = resolve;
      });
      // The victim's key is held: the attacker-shaped user renews regardless; the victim cannot.
      const holder = lock.withLock(renewalKey(victim.user, "github"), { leaseMs: 60_000, waitMs: 1_000 }, async () => {
        held();
        await holding;
      });
      await taken;
      expect((await f.a.require()).secret).not.toBe(f.issued.accessToken);
      await expect(victim.a.require()).rejects.toMatchObject({ code: "LOCK_TIMEOUT" });
      letGo();
      await holder;
    });
  });
}
