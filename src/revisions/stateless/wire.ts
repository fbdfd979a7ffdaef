/**
 * Names and shapes of the stateless era (2026-07-28) that both sides read: the `_meta` keys every
 * request and result carries, the `resultType` values, the multi round-trip shapes and the error
 * codes the revision renumbered (spec 2026-07-28: basic/index § _meta, § Error codes;
 * basic/patterns/mrtr). The names and codes are checked against the wire types generated from the
 * revision's official schema (`src/revisions/generated/2026-07-28.ts`); the shapes stay the loose,
 * hand-written ones the codec reads and writes.
 */
import type {
  InputRequest as GeneratedInputRequest,
  HeaderMismatchError,
  InvalidParamsError,
  MissingRequiredClientCapabilityError,
  NotificationMetaObject,
  RequestMetaObject,
  ResultMetaObject,
  UnsupportedProtocolVersionError,
} from "../generated/2026-07-28.js";

/** `_meta` keys of the stateless era. */
export const META = {
  /** Request: the revision the request is written in, e.g. `"2026-07-28"`. Required. */
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  /** Request: the client's capabilities for this request only (`{}` when none). Required. */
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  /** Request: the client's `{ name, version }`, for display and logs only. */
  clientInfo: "io.modelcontextprotocol/clientInfo",
  /** Request: the lowest log level the client wants for this request; absent means no log messages. */
  logLevel: "io.modelcontextprotocol/logLevel",
  /** Result: the server's `{ name, version }`. */
  serverInfo: "io.modelcontextprotocol/serverInfo",
  /** Notification on a `subscriptions/listen` stream: the id of the listen request it belongs to. */
  subscriptionId: "io.modelcontextprotocol/subscriptionId",
} as const satisfies {
  protocolVersion: keyof RequestMetaObject;
  clientCapabilities: keyof RequestMetaObject;
  clientInfo: keyof RequestMetaObject;
  logLevel: keyof RequestMetaObject;
  serverInfo: keyof ResultMetaObject;
  subscriptionId: keyof NotificationMetaObject;
};

/** `resultType` of a final result. */
export const RESULT_COMPLETE = "complete";
/** `resultType` of an interim result asking the client for input before a retry. */
export const RESULT_INPUT_REQUIRED = "input_required";
/** `resultType` values; results of earlier revisions lack the field and count as `"complete"`. */
export type ResultType = typeof RESULT_COMPLETE | typeof RESULT_INPUT_REQUIRED;

/** Error codes of the stateless era (the -32020 … -32099 range is the specification's). */
export const StatelessErrorCode = {
  /** HTTP headers (`Mcp-Method`, `Mcp-Name`, ...) disagree with the body or are missing; HTTP 400. */
  HeaderMismatch: -32020,
  /** The request needs a client capability absent from its `clientCapabilities`; HTTP 400. */
  MissingRequiredClientCapability: -32021,
  /** The request's `protocolVersion` is not one the server speaks; `data: { requested, supported }`; HTTP 400. */
  UnsupportedProtocolVersion: -32022,
  /** A missing resource is invalid params in this era (it was -32002 before). */
  ResourceNotFound: -32602,
} as const satisfies {
  HeaderMismatch: HeaderMismatchError["error"]["code"];
  MissingRequiredClientCapability: MissingRequiredClientCapabilityError["error"]["code"];
  UnsupportedProtocolVersion: UnsupportedProtocolVersionError["error"]["code"];
  ResourceNotFound: InvalidParamsError["code"];
};

/** Methods of the requests a server may ask a client to fulfil inside an `InputRequiredResult`. */
export type InputRequestMethod = GeneratedInputRequest["method"];
/** Requests a server may ask a client to fulfil inside an `InputRequiredResult`, one of each `InputRequestMethod`. */
export const INPUT_REQUEST_METHODS = [
  "elicitation/create",
  "sampling/createMessage",
  "roots/list",
] as const satisfies readonly InputRequestMethod[];

/** Client requests on which a server may answer with an `InputRequiredResult`. */
export const MRTR_METHODS: ReadonlySet<string> = new Set(["tools/call", "prompts/get", "resources/read"]);

/** One request inside `inputRequests`: a method and its params, without `jsonrpc` or `id`. */
export interface InputRequest {
  method: InputRequestMethod;
  params: Record<string, unknown>;
}

/** Server-assigned keys to the requests the client must fulfil. */
export type InputRequests = Record<string, InputRequest>;
/** The client's results (`ElicitResult`, `CreateMessageResult`, `ListRootsResult`) under the same keys. */
export type InputResponses = Record<string, Record<string, unknown>>;

/** The interim result of a multi round-trip request. At least one of the two fields is present. */
export interface InputRequiredResult {
  resultType: typeof RESULT_INPUT_REQUIRED;
  inputRequests?: InputRequests;
  /** Opaque to the client, echoed byte for byte on the retry. */
  requestState?: string;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/** The per-request facts a stateless request carries in `_meta`. */
export interface RequestMeta {
  protocolVersion: string;
  clientCapabilities: Record<string, unknown>;
  clientInfo?: { name: string; version: string; [key: string]: unknown };
  /** `undefined`: the client asked for no log messages on this request. */
  logLevel?: string;
}

/** Whether a result is an `InputRequiredResult`. */
export function isInputRequired(result: unknown): result is InputRequiredResult {
  return (
    typeof result === "object" &&
    result !== null &&
    (result as Record<string, unknown>).resultType === RESULT_INPUT_REQUIRED
  );
}
