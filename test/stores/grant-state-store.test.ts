import { MemoryGrantStateStore } from "../../src/connect/index.js";
import { runGrantStateStoreContract } from "./grant-state-store.contract.js";

runGrantStateStoreContract("memory", () => {
  const clock = { now: 1_700_000_000_000 };
  return {
    store: new MemoryGrantStateStore(() => clock.now),
    now: () => clock.now,
    elapse: async (ms: number) => {
      clock.now += ms;
    },
  };
});
