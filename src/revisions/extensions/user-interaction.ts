/**
 * The user-interaction proposal: an extension of the stateful revisions that no released schema
 * defines, active only with a client that declared `userInteraction: { types: [...] }`. The server
 * sends `interaction/create` (answered `{}` once the page is opened, or error -32099 when the user
 * says no) or answers a request with error -32003 `interaction_required`; the client may send
 * `interaction/track` and receive `notifications/progress` until the interaction completes.
 * The schemas below are written by hand from the proposal's `schema.ts` and prose.
 */
import type { ValidateFunction } from "ajv";
import { ProtocolError } from "../../jsonrpc/errors.js";
import { createAjv } from "../ajv.js";
import { type MethodTable, notificationMap, requestMap } from "../method-table.js";
import type { JsonSchema } from "../schema-document.js";

/** The methods the extension adds. */
export const INTERACTION_CREATE = "interaction/create";
export const INTERACTION_TRACK = "interaction/track";
/** Error code: the request needs the user to complete an interaction first (`message: "interaction_required"`). */
export const INTERACTION_REQUIRED_CODE = -32003;
export const INTERACTION_REQUIRED_MESSAGE = "interaction_required";
/** Error code a client answers `interaction/create` with when the user declines or cancels. */
export const INTERACTION_DECLINED_CODE = -32099;

const META: JsonSchema = { type: "object" };
const REQUEST_ID: JsonSchema = { type: ["string", "integer"] };
const TEXT_CONTENT: JsonSchema = {
  type: "object",
  required: ["type", "text"],
  properties: { type: { const: "text" }, text: { type: "string" }, _meta: META },
};
const UA_FIELDS = { url: { type: "string", format: "uri" }, message: TEXT_CONTENT };
const UA_INTERACTION: JsonSchema = { type: "object", required: ["url"], properties: UA_FIELDS };
/** Another interaction type, whose fields the proposal leaves to that type. */
const NOT_UA: JsonSchema = { not: { const: "ua" } };

function request(method: string, params: JsonSchema): JsonSchema {
  return {
    type: "object",
    required: ["jsonrpc", "id", "method", "params"],
    properties: { jsonrpc: { const: "2.0" }, id: REQUEST_ID, method: { const: method }, params },
  };
}

/** Definitions by name, in the 2020-12 dialect. */
const DEFINITIONS: Readonly<Record<string, JsonSchema>> = {
  CreateUserInteractionRequest: request(INTERACTION_CREATE, {
    type: "object",
    required: ["id", "type", "interaction"],
    properties: { _meta: META, id: { type: "string", minLength: 1 }, type: { type: "string" }, interaction: {} },
    anyOf: [
      { properties: { type: { const: "ua" }, interaction: UA_INTERACTION } },
      { properties: { type: NOT_UA, interaction: { type: "object" } } },
    ],
  }),
  CreateUserInteractionResult: { type: "object", properties: { _meta: META } },
  TrackUserInteractionRequest: request(INTERACTION_TRACK, {
    type: "object",
    required: ["id", "_meta"],
    properties: {
      id: { type: "string", minLength: 1 },
      _meta: { type: "object", required: ["progressToken"], properties: { progressToken: REQUEST_ID } },
    },
  }),
  TrackUserInteractionResult: { type: "object", properties: { _meta: META } },
  InteractionRequiredError: {
    type: "object",
    required: ["code", "message", "data"],
    properties: {
      code: { const: INTERACTION_REQUIRED_CODE },
      message: { const: INTERACTION_REQUIRED_MESSAGE },
      data: {
        type: "object",
        required: ["id", "type"],
        properties: { id: { type: "string", minLength: 1 }, type: { type: "string" } },
        anyOf: [
          { required: ["url"], properties: { type: { const: "ua" }, ...UA_FIELDS } },
          { properties: { type: NOT_UA } },
        ],
      },
    },
  },
};

/** A protocol extension: its own methods and the schemas that check them. */
export interface WireExtension {
  /** Its methods, with definition names of `validator`. */
  readonly methods: MethodTable;
  /** Error codes it defines, with the definition of the whole error object. */
  readonly errors: ReadonlyMap<number, string>;
  /** The validator of one of its definitions. */
  validator(definition: string): ValidateFunction;
}

const SCHEMA_ID = "urn:mcp-handoff:extension:user-interaction";
let ajv: ReturnType<typeof createAjv> | undefined;
const compiled = new Map<string, ValidateFunction>();

export const USER_INTERACTION_EXTENSION: WireExtension = {
  methods: {
    clientRequests: requestMap([[INTERACTION_TRACK, "TrackUserInteractionRequest", "TrackUserInteractionResult"]]),
    serverRequests: requestMap([[INTERACTION_CREATE, "CreateUserInteractionRequest", "CreateUserInteractionResult"]]),
    clientNotifications: notificationMap([]),
    serverNotifications: notificationMap([]),
  },
  errors: new Map([[INTERACTION_REQUIRED_CODE, "InteractionRequiredError"]]),
  validator(definition) {
    const cached = compiled.get(definition);
    if (cached !== undefined) return cached;
    if (ajv === undefined) {
      ajv = createAjv("2020-12");
      ajv.addSchema({ $id: SCHEMA_ID, $defs: DEFINITIONS });
    }
    const validate = ajv.getSchema(`${SCHEMA_ID}#/$defs/${definition}`);
    if (validate === undefined) throw new Error(`The user-interaction extension has no definition ${definition}`);
    compiled.set(definition, validate);
    return validate;
  },
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The interaction types a client declared (`capabilities.userInteraction.types`), e.g. `["ua"]`;
 * empty when it declared none or the declaration is malformed.
 */
export function declaredInteractionTypes(capabilities: unknown): string[] {
  const declared = isRecord(capabilities) ? capabilities.userInteraction : undefined;
  const types = isRecord(declared) ? declared.types : undefined;
  return Array.isArray(types) ? types.filter((type): type is string => typeof type === "string") : [];
}

/** A `ua` interaction as the client receives it, in `interaction/create` or in a -32003 error. */
export interface UaInteraction {
  id: string;
  url: string;
  /** The explanation for the user; plain text. */
  message?: string;
}

function readUa(id: unknown, type: unknown, fields: unknown): UaInteraction | undefined {
  if (typeof id !== "string" || id === "" || type !== "ua" || !isRecord(fields) || typeof fields.url !== "string") {
    return undefined;
  }
  const message = isRecord(fields.message) && typeof fields.message.text === "string" ? fields.message.text : undefined;
  return message === undefined ? { id, url: fields.url } : { id, url: fields.url, message };
}

/** Client side: the `ua` interaction an `interaction/create` request carries, or `undefined` for another type. */
export function readInteractionCreate(params: Record<string, unknown>): UaInteraction | undefined {
  return readUa(params.id, params.type, params.interaction);
}

/** Client side: the `ua` interaction a -32003 `interaction_required` error carries, else `undefined`. */
export function readInteractionRequired(error: { code: number; data?: unknown }): UaInteraction | undefined {
  if (error.code !== INTERACTION_REQUIRED_CODE || !isRecord(error.data)) return undefined;
  return readUa(error.data.id, error.data.type, error.data);
}

/** Client side: the error to answer `interaction/create` with when the user declines or cancels (-32099). */
export function interactionDeclinedError(message = "User did not consent to the interaction."): ProtocolError {
  return new ProtocolError(INTERACTION_DECLINED_CODE, message);
}

/**
 * Client side: whether a progress update of `interaction/track` says the interaction completed
 * (the server reports `progress === total` then, and only then).
 */
export function isInteractionTrackComplete(progress: { progress: number; total?: number }): boolean {
  return progress.total !== undefined && progress.progress >= progress.total;
}
