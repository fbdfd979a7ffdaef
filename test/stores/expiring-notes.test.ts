import { MemoryExpiringNotes } from "../../src/stores/index.js";
import { runExpiringNotesContract } from "./expiring-notes.contract.js";

runExpiringNotesContract("memory", {
  async open() {
    const clock = { time: 1_000_000 };
    return {
      notes: new MemoryExpiringNotes({ now: () => clock.time }),
      advance: async (ms) => {
        clock.time += ms;
      },
    };
  },
});
