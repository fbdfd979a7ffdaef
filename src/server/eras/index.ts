/**
 * The era drivers of a server connection, by era, and the one place that reads which era a
 * request is written in (asked of the codec).
 */
import { isStatelessRequest, type Revision } from "../../revisions/index.js";
import type { EraDriver } from "./driver.js";
import { STATEFUL } from "./stateful.js";
import { STATELESS } from "./stateless.js";

export type {
  ConnectionServe,
  ConnectionSettings,
  EraConnection,
  EraDriver,
  HandlerMethod,
  MethodSpec,
  ServedSession,
} from "./driver.js";
export { initialize } from "./stateful.js";
export { discover, entryGate, listen, listensOf, presumedGate } from "./stateless.js";

const DRIVERS: Record<Revision["era"], EraDriver> = { stateful: STATEFUL, stateless: STATELESS };

/** The driver of the era request `method` with `params` is written in. */
export function driverFor(method: string, params: unknown): EraDriver {
  return DRIVERS[isStatelessRequest(method, params) ? "stateless" : "stateful"];
}
