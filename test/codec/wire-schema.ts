/**
 * Checks recorded wire messages against the official JSON Schema of a revision: the JSON-RPC
 * envelope (`JSONRPCRequest`, `JSONRPCNotification`, `JSONRPCResponse` or the error definition)
 * and then the definition of the method itself, request or result.
 */
import { Ajv, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { JsonRpcMessage, RequestId } from "../../src/jsonrpc/messages.js";
import type { Transport } from "../../src/jsonrpc/transport.js";
import { schema as schema20241105 } from "../../src/revisions/generated/2024-11-05.schema.js";
import { schema as schema20250326 } from "../../src/revisions/generated/2025-03-26.schema.js";
import { schema as schema20250618 } from "../../src/revisions/generated/2025-06-18.schema.js";
import { schema as schema20251125 } from "../../src/revisions/generated/2025-11-25.schema.js";
import type { StatefulVersion } from "../../src/revisions/index.js";
import type { SchemaDocument } from "../../src/revisions/schema-document.js";

// ajv-formats is CommonJS: under NodeNext its default import is the module object.
const addFormats = addFormatsModule.default;

/** The official files as released (embedded verbatim), without any correction the codec applies. */
const OFFICIAL: Readonly<Record<StatefulVersion, SchemaDocument>> = {
  "2024-11-05": schema20241105,
  "2025-03-26": schema20250326,
  "2025-06-18": schema20250618,
  "2025-11-25": schema20251125,
};

function definitionsOf(version: StatefulVersion): Readonly<Record<string, unknown>> {
  const document = OFFICIAL[version];
  return document.$defs ?? document.definitions ?? {};
}

const validators = new Map<string, ValidateFunction>();
const instances = new Map<StatefulVersion, Ajv>();

/** The validator of one named definition of a revision's official schema, compiled once. */
function validatorFor(version: StatefulVersion, definition: string): ValidateFunction {
  const key = `${version}#${definition}`;
  const cached = validators.get(key);
  if (cached !== undefined) return cached;
  let ajv = instances.get(version);
  if (ajv === undefined) {
    const document = OFFICIAL[version];
    const options = { strict: false, allErrors: true } as const;
    ajv = String(document.$schema).includes("2020-12") ? new Ajv2020(options) : new Ajv(options);
    addFormats(ajv);
    ajv.addSchema(document, `urn:official:${version}`);
    instances.set(version, ajv);
  }
  const pointer = OFFICIAL[version].$defs ? "$defs" : "definitions";
  const validate = ajv.getSchema(`urn:official:${version}#/${pointer}/${definition}`);
  if (validate === undefined) throw new Error(`${version} has no definition ${definition}`);
  validators.set(key, validate);
  return validate;
}

export type Side = "client" | "server";

export interface Sent {
  side: Side;
  message: JsonRpcMessage;
}

/** Wraps `transport.send` so that every message the side puts on the wire is kept, as sent. */
export function recordSends(transport: Transport, side: Side, log: Sent[]): void {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    log.push({ side, message: structuredClone(message) });
    return send(message, options);
  };
}

/** Result definitions by method, as each schema's request unions pair them. */
const RESULTS: Readonly<Record<string, string>> = {
  initialize: "InitializeResult",
  ping: "EmptyResult",
  "logging/setLevel": "EmptyResult",
  "resources/subscribe": "EmptyResult",
  "resources/unsubscribe": "EmptyResult",
  "tools/list": "ListToolsResult",
  "tools/call": "CallToolResult",
  "resources/list": "ListResourcesResult",
  "resources/templates/list": "ListResourceTemplatesResult",
  "resources/read": "ReadResourceResult",
  "prompts/list": "ListPromptsResult",
  "prompts/get": "GetPromptResult",
  "completion/complete": "CompleteResult",
  "sampling/createMessage": "CreateMessageResult",
  "elicitation/create": "ElicitResult",
  "roots/list": "ListRootsResult",
};

/** The definition whose `method` is this constant: `tools/call` is `CallToolRequest`, and so on. */
function definitionOfMethod(version: StatefulVersion, method: string): string | undefined {
  for (const [name, schema] of Object.entries(definitionsOf(version))) {
    const property = (schema as { properties?: { method?: { const?: unknown } } }).properties?.method;
    if (property?.const === method) return name;
  }
  return undefined;
}

function errorDefinition(version: StatefulVersion): string {
  return Object.hasOwn(definitionsOf(version), "JSONRPCErrorResponse") ? "JSONRPCErrorResponse" : "JSONRPCError";
}

/**
 * Every way the recorded messages fail the revision's schema, one line each:
 * `<side> <what> #<index>: <definition> <path> <problem>`. Empty when all of them validate.
 */
export function schemaFailures(version: StatefulVersion, log: readonly Sent[]): string[] {
  const failures: string[] = [];
  // Which method each side's request ids stand for, to pick the definition of the answer.
  const asked: Record<Side, Map<RequestId, string>> = { client: new Map(), server: new Map() };
  const check = (entry: Sent, index: number, definition: string | undefined, value: unknown, what: string) => {
    const label = `${entry.side} ${what} #${index}`;
    if (definition === undefined) {
      failures.push(`${label}: no definition in ${version}`);
      return;
    }
    const validate = validatorFor(version, definition);
    if (validate(value)) return;
    for (const error of validate.errors ?? []) {
      failures.push(`${label}: ${definition} ${error.instancePath || "/"} ${error.message ?? ""}`.trimEnd());
    }
  };
  log.forEach((entry, index) => {
    const { message, side } = entry;
    if ("method" in message) {
      const isRequest = "id" in message;
      if (isRequest) asked[side].set(message.id, message.method);
      check(entry, index, isRequest ? "JSONRPCRequest" : "JSONRPCNotification", message, message.method);
      check(entry, index, definitionOfMethod(version, message.method), message, message.method);
      return;
    }
    const peer: Side = side === "client" ? "server" : "client";
    const method = message.id === null ? undefined : asked[peer].get(message.id);
    const what = `answer to ${method ?? `id ${JSON.stringify(message.id)}`}`;
    if ("error" in message) {
      check(entry, index, errorDefinition(version), message, what);
      return;
    }
    check(entry, index, "JSONRPCResponse", message, what);
    check(entry, index, method === undefined ? undefined : RESULTS[method], message.result, what);
  });
  return failures;
}
