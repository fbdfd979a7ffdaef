/** Every workload, in the order of the report. */
import { elicitation } from "./elicitation.js";
import { fleetHandoff } from "./fleet-handoff.js";
import { fleetHaproxy } from "./fleet-haproxy.js";
import { fleetSessionCalls } from "./fleet-session-calls.js";
import { httpCalls } from "./http-calls.js";
import { httpMemory } from "./http-memory.js";
import { httpPayload } from "./http-payload.js";
import { httpSessions } from "./http-sessions.js";
import { httpStateless } from "./http-stateless.js";
import { stdioCalls } from "./stdio-calls.js";
import { stdioColdStart } from "./stdio-cold-start.js";
import { stdioPayload } from "./stdio-payload.js";
import type { Workload } from "./types.js";

export const WORKLOADS: readonly Workload[] = [
  stdioCalls,
  stdioPayload,
  stdioColdStart,
  httpCalls,
  httpSessions,
  httpStateless,
  httpPayload,
  httpMemory,
  elicitation,
  fleetHandoff,
  fleetSessionCalls,
  fleetHaproxy,
];
