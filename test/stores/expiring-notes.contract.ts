/**
 * The `ExpiringNotes` contract every engine runs: a note is read back until its time is up, then
 * never again; a newer note replaces an older; a bad lifetime keeps nothing.
 */
import { describe, expect, it } from "vitest";
import type { ExpiringNotes } from "../../src/stores/index.js";

export interface NotesHarness {
  /** Notes on the engine, on a clock the test moves (`advance`), or on real time for an engine with its own. */
  open(): Promise<{ notes: ExpiringNotes; advance(ms: number): Promise<void> }>;
}

export function runExpiringNotesContract(name: string, harness: NotesHarness): void {
  describe(`ExpiringNotes contract: ${name}`, () => {
    let serial = 0;
    const key = () => `note-test-${process.pid}-${++serial}`;

    it("reads a note back until it lapses, then never again", async () => {
      const { notes, advance } = await harness.open();
      const k = key();
      await notes.put(k, "provider did not answer", 200);
      expect(await notes.get(k)).toBe("provider did not answer");
      await advance(210);
      expect(await notes.get(k)).toBeUndefined();
    });

    it("a newer note replaces an older one, with its own lifetime; other keys are untouched", async () => {
      const { notes, advance } = await harness.open();
      const [k, other] = [key(), key()];
      await notes.put(k, "first", 200);
      await notes.put(other, "other", 10_000);
      await notes.put(k, "second", 10_000);
      await advance(210);
      expect(await notes.get(k)).toBe("second");
      expect(await notes.get(other)).toBe("other");
      expect(await notes.get(key())).toBeUndefined();
    });

    it("a lifetime that is not a positive number is refused and keeps nothing", async () => {
      const { notes } = await harness.open();
      const k = key();
      for (const ttl of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
        await expect(notes.put(k, "x", ttl)).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
      }
      expect(await notes.get(k)).toBeUndefined();
    });
  });
}
