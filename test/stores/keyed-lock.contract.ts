/**
 * What every `KeyedLock` promises, run against each engine: one holder per key at a time, also
 * across instances; waiters of one instance served in the order they asked; a waiter that gives up
 * never runs its task; a lease that runs out lets the next holder in, and the late holder's release
 * does not free that next holder. Leases and waits are real time, as a shared engine keeps them.
 */
import { describe, expect, it } from "vitest";
import type { KeyedLock } from "../../src/stores/index.js";

/**
 * `count` locks that share one engine, as the instances of a fleet would (an in-process engine
 * may hand back one lock `count` times). Each call starts on keys no other call used.
 */
export type OpenKeyedLocks = (count: number) => KeyedLock[] | Promise<KeyedLock[]>;

const LONG = { leaseMs: 60_000, waitMs: 20_000 };

/** A promise with its resolve function outside. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = (): void => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** A few turns of the event loop, so that other tasks get the chance to run. */
const yieldTurns = async (turns = 5): Promise<void> => {
  for (let i = 0; i < turns; i += 1) await new Promise((resolve) => setImmediate(resolve));
};

export function runKeyedLockContract(name: string, open: OpenKeyedLocks): void {
  describe(`${name} keyed lock`, () => {
    it("lets one task at a time hold a key, across every lock of the engine, and hands back each result", async () => {
      const locks = await open(3);
      let inside = 0;
      let most = 0;
      const results = await Promise.all(
        Array.from({ length: 9 }, (_, n) =>
          (locks[n % locks.length] as KeyedLock).withLock("grant:alice:github", LONG, async () => {
            inside += 1;
            most = Math.max(most, inside);
            await yieldTurns();
            inside -= 1;
            return n;
          }),
        ),
      );
      expect(most).toBe(1);
      expect(results).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    });

    it("does not make tasks on different keys wait for each other", async () => {
      const [lock] = (await open(1)) as [KeyedLock];
      const a = gate();
      const b = gate();
      const short = { leaseMs: 60_000, waitMs: 5_000 };
      // Each task waits for the other to be inside: only possible when both hold their key at once.
      await Promise.all([
        lock.withLock("key-a", short, async () => {
          a.open();
          await b.promise;
        }),
        lock.withLock("key-b", short, async () => {
          b.open();
          await a.promise;
        }),
      ]);
    });

    it("serves the waiters of one lock in the order they asked", async () => {
      const [lock] = (await open(1)) as [KeyedLock];
      const first = gate();
      const order: string[] = [];
      const holding = lock.withLock("ordered", LONG, async () => {
        await first.promise;
        order.push("first");
      });
      await yieldTurns();
      const waiting = ["second", "third", "fourth"].map((label) =>
        lock.withLock("ordered", LONG, async () => {
          order.push(label);
        }),
      );
      await yieldTurns();
      first.open();
      await Promise.all([holding, ...waiting]);
      expect(order).toEqual(["first", "second", "third", "fourth"]);
    });

    it("gives up after waitMs with LOCK_TIMEOUT and never runs the waiter's task", async () => {
      const [holder, other] = (await open(2)) as [KeyedLock, KeyedLock];
      const inside = gate();
      const done = gate();
      const holding = holder.withLock("busy", LONG, async () => {
        inside.open();
        await done.promise;
      });
      await inside.promise;
      let ran = false;
      const refusal = await other
        .withLock("busy", { leaseMs: 60_000, waitMs: 150 }, async () => {
          ran = true;
        })
        .catch((error: unknown) => error);
      expect(refusal).toMatchObject({ code: "LOCK_TIMEOUT" });
      expect(ran).toBe(false);
      done.open();
      await holding;
      // Once the holder is done the key is free again.
      expect(await other.withLock("busy", LONG, async () => "free")).toBe("free");
      expect(ran).toBe(false);
    });

    it("lets the next holder in once a hung holder's lease runs out", async () => {
      const [hung, next] = (await open(2)) as [KeyedLock, KeyedLock];
      const inside = gate();
      const stuck = gate();
      const hanging = hung.withLock("lease", { leaseMs: 200, waitMs: 5_000 }, async () => {
        inside.open();
        await stuck.promise;
        return "late";
      });
      await inside.promise;
      expect(await next.withLock("lease", LONG, async () => "in")).toBe("in");
      stuck.open();
      expect(await hanging).toBe("late");
    });

    it("does not free the next holder when a holder whose lease ran out finishes", async () => {
      const [hung, next, third] = (await open(3)) as [KeyedLock, KeyedLock, KeyedLock];
      const hungInside = gate();
      const stuck = gate();
      const hanging = hung.withLock("stolen", { leaseMs: 200, waitMs: 5_000 }, async () => {
        hungInside.open();
        await stuck.promise;
      });
      await hungInside.promise;
      const nextInside = gate();
      const nextDone = gate();
      const holding = next.withLock("stolen", LONG, async () => {
        nextInside.open();
        await nextDone.promise;
      });
      await nextInside.promise;
      stuck.open();
      await hanging;
      // The late release must have left the next holder's lock in place.
      let ran = false;
      const refusal = await third
        .withLock("stolen", { leaseMs: 60_000, waitMs: 300 }, async () => {
          ran = true;
        })
        .catch((error: unknown) => error);
      expect(refusal).toMatchObject({ code: "LOCK_TIMEOUT" });
      expect(ran).toBe(false);
      nextDone.open();
      await holding;
    });

    it("releases the key when the task throws, and rejects with the task's error", async () => {
      const [lock, other] = (await open(2)) as [KeyedLock, KeyedLock];
      const broken = new Error("upstream refused the refresh");
      await expect(
        lock.withLock("thrown", LONG, async () => {
          throw broken;
        }),
      ).rejects.toBe(broken);
      expect(await other.withLock("thrown", { leaseMs: 60_000, waitMs: 2_000 }, async () => "after")).toBe("after");
    });
  });
}
