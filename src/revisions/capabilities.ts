/**
 * Capability checks in the neutral model (spec: basic/lifecycle § Capability Negotiation). A side must
 * not send a request the peer did not declare support for; these helpers say which declaration a
 * request needs and whether the peer made it.
 */
import { ProtocolError, SdkError } from "../jsonrpc/errors.js";
import { declaredInteractionTypes, INTERACTION_CREATE } from "./extensions/user-interaction.js";
import type { ClientCapabilities, ElicitationMode, ServerCapabilities } from "./model.js";
import { StatelessErrorCode } from "./stateless/wire.js";

const MISSING_REQUIRED_CLIENT_CAPABILITY = StatelessErrorCode.MissingRequiredClientCapability;

/** Capabilities as received: typed by the model, but read defensively since a peer may send anything. */
type Declared = ClientCapabilities | ServerCapabilities | Record<string, unknown> | undefined;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The value at `path` when every step is a declared object, else `undefined`. */
function declared(caps: Declared, path: readonly string[]): Record<string, unknown> | undefined {
  let current: unknown = caps;
  for (const key of path) {
    if (!isRecord(current) || !isRecord(current[key])) return undefined;
    current = current[key];
  }
  return isRecord(current) ? current : undefined;
}

/**
 * The elicitation modes a client declared. An empty `elicitation: {}` means form only: that is how
 * 2025-06-18 clients declare elicitation, and 2025-11-25 keeps the meaning (spec 2025-11-25:
 * client/elicitation § Capabilities).
 * @internal
 */
export function clientElicitationModes(caps: Declared): ElicitationMode[] {
  const elicitation = declared(caps, ["elicitation"]);
  if (elicitation === undefined) return [];
  const modes: ElicitationMode[] = [];
  if (isRecord(elicitation.form)) modes.push("form");
  if (isRecord(elicitation.url)) modes.push("url");
  return modes.length > 0 ? modes : ["form"];
}

function missing(side: "server", method: string, capability: string): SdkError {
  return new SdkError(
    "CAPABILITY_NOT_SUPPORTED",
    `The ${side} did not declare the ${capability} capability, which ${method} requires`,
  );
}

/**
 * SdkError "CAPABILITY_NOT_SUPPORTED" for a request to the client that the client did not declare
 * (`ctx.elicit`, `ctx.sample`, `ctx.listRoots`); nothing was sent. A handler may catch it and go
 * on without; left uncaught, the request that needed it is answered with `toProtocolError()` in
 * every revision, as revision 2026-07-28 requires (spec 2026-07-28: basic § `_meta`, "the server
 * MUST return a MissingRequiredClientCapabilityError"); 2025-11-25 prescribes no error, and the
 * same one keeps the caller's outcome alike in both eras.
 */
export class MissingClientCapabilityError extends SdkError {
  /** What the client would have had to declare, as a `ClientCapabilities` object, e.g. `{ sampling: {} }`. */
  readonly requiredCapabilities: Record<string, unknown>;

  constructor(method: string, capability: string, requiredCapabilities: Record<string, unknown>) {
    super(
      "CAPABILITY_NOT_SUPPORTED",
      `The client did not declare the ${capability} capability, which ${method} requires`,
    );
    this.requiredCapabilities = requiredCapabilities;
  }

  /** The JSON-RPC error to answer with: -32021 MissingRequiredClientCapability, `data.requiredCapabilities`. */
  toProtocolError(): ProtocolError {
    return new ProtocolError(MISSING_REQUIRED_CLIENT_CAPABILITY, this.message, {
      requiredCapabilities: this.requiredCapabilities,
    });
  }
}

/** `{ a: { b: {} } }` for the path `["a", "b"]`. */
function nested(path: readonly string[]): Record<string, unknown> {
  return path.reduceRight<Record<string, unknown>>((inner, key) => ({ [key]: inner }), {});
}

function missingClient(method: string, path: readonly string[], required = nested(path)): MissingClientCapabilityError {
  return new MissingClientCapabilityError(method, path.join("."), required);
}

/** Capability paths a client must declare for a server request. */
const CLIENT_NEEDS: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries({
    "sampling/createMessage": ["sampling"],
    "roots/list": ["roots"],
    "elicitation/create": ["elicitation"],
    "tasks/get": ["tasks"],
    "tasks/result": ["tasks"],
    "tasks/list": ["tasks", "list"],
    "tasks/cancel": ["tasks", "cancel"],
  }),
);

/** Where a task-augmented server request (`params.task`) must be declared by the client. */
const CLIENT_TASK_REQUESTS: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries({
    "sampling/createMessage": ["tasks", "requests", "sampling", "createMessage"],
    "elicitation/create": ["tasks", "requests", "elicitation", "create"],
  }),
);

/**
 * Server side: whether the client declared what a server request needs. `sampling/createMessage`
 * needs `sampling` (and `sampling.tools` when it offers tools), `roots/list` needs `roots`,
 * `elicitation/create` needs its mode (`params.mode`, form when absent) among
 * `clientElicitationModes(caps)`; task requests need `tasks`; `interaction/create` (the
 * user-interaction proposal) needs its `type` among `userInteraction.types`.
 *
 * @returns MissingClientCapabilityError (SdkError `CAPABILITY_NOT_SUPPORTED`) naming the missing
 *   capability, or `undefined`.
 * @internal
 */
export function assertClientCapability(
  caps: Declared,
  method: string,
  params?: Record<string, unknown>,
): MissingClientCapabilityError | undefined {
  const path = CLIENT_NEEDS.get(method);
  if (path !== undefined && declared(caps, path) === undefined) {
    // An elicitation is refused for its mode, which says what the client lacks more precisely.
    if (method !== "elicitation/create") return missingClient(method, path);
  }
  if (method === "elicitation/create") {
    const mode = String(params?.mode ?? "form");
    if (!clientElicitationModes(caps).includes(mode as ElicitationMode)) {
      return missingClient(`elicitation/create in ${mode} mode`, ["elicitation", mode]);
    }
  }
  if (method === INTERACTION_CREATE && !declaredInteractionTypes(caps).includes(String(params?.type))) {
    return missingClient(`${method} of type ${JSON.stringify(params?.type)}`, ["userInteraction", "types"], {
      userInteraction: { types: [String(params?.type)] },
    });
  }
  if (method === "sampling/createMessage" && params?.tools !== undefined && !declared(caps, ["sampling", "tools"])) {
    return missingClient("sampling/createMessage with tools", ["sampling", "tools"]);
  }
  const taskPath = CLIENT_TASK_REQUESTS.get(method);
  if (taskPath !== undefined && params?.task !== undefined && !declared(caps, taskPath)) {
    return missingClient(`task-augmented ${method}`, taskPath);
  }
  return undefined;
}

/** Capability paths a server must declare for a client request. */
const SERVER_NEEDS: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries({
    "tools/list": ["tools"],
    "tools/call": ["tools"],
    "resources/list": ["resources"],
    "resources/templates/list": ["resources"],
    "resources/read": ["resources"],
    "resources/subscribe": ["resources"],
    "resources/unsubscribe": ["resources"],
    "prompts/list": ["prompts"],
    "prompts/get": ["prompts"],
    "completion/complete": ["completions"],
    "logging/setLevel": ["logging"],
    "tasks/get": ["tasks"],
    "tasks/result": ["tasks"],
    "tasks/list": ["tasks", "list"],
    "tasks/cancel": ["tasks", "cancel"],
  }),
);

/**
 * Client side: whether the server declared what a client request needs: `tools/*` needs `tools`,
 * `resources/*` needs `resources` (and `resources.subscribe === true` to subscribe), `prompts/*`
 * needs `prompts`, `completion/complete` needs `completions`, `logging/setLevel` needs `logging`,
 * task requests need `tasks`, and a task-augmented `tools/call` needs `tasks.requests.tools.call`.
 * `initialize`, `ping` and unknown methods need nothing here. With `defined` (the negotiated
 * revision's `serverCapabilities`), a capability that revision does not define is not required.
 *
 * @returns SdkError `CAPABILITY_NOT_SUPPORTED` naming the missing capability, or `undefined`.
 * @internal
 */
export function assertServerCapability(
  caps: Declared,
  method: string,
  params?: Record<string, unknown>,
  defined?: ReadonlySet<string>,
): SdkError | undefined {
  const path = SERVER_NEEDS.get(method);
  // A capability the negotiated revision does not define cannot be declared, so it is not required.
  const definable = path === undefined || defined === undefined || defined.has(path[0] ?? "");
  if (path !== undefined && definable && declared(caps, path) === undefined) {
    return missing("server", method, path.join("."));
  }
  if (
    (method === "resources/subscribe" || method === "resources/unsubscribe") &&
    declared(caps, ["resources"])?.subscribe !== true
  ) {
    return missing("server", method, "resources.subscribe");
  }
  if (
    method === "tools/call" &&
    params?.task !== undefined &&
    !declared(caps, ["tasks", "requests", "tools", "call"])
  ) {
    return missing("server", "task-augmented tools/call", "tasks.requests.tools.call");
  }
  return undefined;
}
