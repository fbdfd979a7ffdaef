/** A form elicitation inside a tool call, over stdio: tool -> elicitation/create -> answer -> result. */
import { serverCommand } from "../impl/process.js";
import { ELICIT_ANSWER } from "../impl/shared.js";
import { perSecond, runBounded } from "./loop.js";
import { type Scale, scaledCount, scaledTime, type Workload } from "./types.js";

const COUNT = 5_000;
const TIME_MS = 3_000;
/** Warm-up round trips (up to TIME_MS), so the measured ones run optimized code. */
const WARMUP = 1_000;

export const elicitation: Workload = {
  id: "elicitation",
  title: "Form elicitation round trip (stdio)",
  description: `tools/call of "ask", whose handler sends elicitation/create and returns the client's answer; one at a time, up to ${TIME_MS} ms after ${WARMUP} warm-up round trips.`,
  figures: [{ id: "round-trips", label: "round trips", unit: "per s", better: "higher" }],
  async run({ client: impl }, scale: Scale) {
    const session = await impl.openStdio(serverCommand(impl.stdioServer));
    const ask = async () => {
      const answer = await session.ask();
      if (answer !== ELICIT_ANSWER.content.colour) throw new Error(`the tool answered ${JSON.stringify(answer)}`);
    };
    try {
      await runBounded({ count: scaledCount(WARMUP, scale), timeMs: TIME_MS }, ask);
      const bounds = { count: scaledCount(COUNT, scale), timeMs: scaledTime(TIME_MS, scale) };
      return { "round-trips": perSecond(await runBounded(bounds, ask)) };
    } finally {
      await session.close();
    }
  },
};
