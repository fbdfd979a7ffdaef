import { MemorySessionDirectory } from "../../src/transports/http/index.js";
import { runSessionDirectoryContract } from "./session-directory.contract.js";

runSessionDirectoryContract(
  "memory",
  () => {
    const clock = { now: 1_700_000_000_000 };
    const directory = new MemorySessionDirectory({ now: () => clock.now });
    return {
      directory,
      elapse: async (ms: number) => {
        clock.now += ms;
      },
    };
  },
  { subscribedTo: true },
);
