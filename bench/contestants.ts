/**
 * Who runs a workload: each implementation with its own client and server, and, for workloads
 * that split them, our client against the bare server (`ours@bare`) and the bare client against
 * our server (`bare@ours`), so that client and server are judged apart.
 */
import type { Contestant, ContestantName, Implementation } from "./impl/types.js";
import type { Workload } from "./workloads/types.js";

export type { Contestant, ContestantName };

/** The two splits, client first: `<client>@<server>`. */
export const SPLITS = ["ours@bare", "bare@ours"] as const satisfies readonly ContestantName[];

/** Every column of the report, in its order. */
export const CONTESTANT_NAMES: readonly ContestantName[] = ["bare", "ours", "sdk-v1", "sdk-v2", ...SPLITS];

/**
 * Whether `impl` can take part in `workload`: the 2026 rows need the stateless revision, the
 * fleet rows run our server only (the others have no fleet to measure).
 */
function serves(workload: Workload, impl: Implementation): boolean {
  if (workload.fleet === true && impl.name !== "ours") return false;
  return workload.stateless !== true || (impl.openStateless !== undefined && impl.statelessServer !== undefined);
}

/** The contestants of `workload` among `impls`, in the order of `impls`, then the splits. */
export function contestantsFor(workload: Workload, impls: readonly Implementation[]): Contestant[] {
  const own = impls.filter((impl) => serves(workload, impl));
  const contestants: Contestant[] = own.map((impl) => ({ name: impl.name, client: impl, server: impl }));
  const ours = own.find((impl) => impl.name === "ours");
  const bare = own.find((impl) => impl.name === "bare");
  if (workload.splits === true && ours !== undefined && bare !== undefined) {
    contestants.push(
      { name: "ours@bare", client: ours, server: bare },
      { name: "bare@ours", client: bare, server: ours },
    );
  }
  return contestants;
}
