/**
 * Every official example of revision 2026-07-28 (spec/examples-2026-07-28/<Definition>/)
 * goes through the stateless codec: checked as received, decoded into the neutral model (the
 * era's additions taken off), encoded back the way the codec sends it, compared with the
 * original, and what was emitted is validated against the folder's definition in the official
 * schema file, compiled here on its own rather than through the codec's embedded copy.
 *
 * How each kind travels:
 * - requests: `_meta` version, capabilities, client info and log level are read off
 *   (`readRequestMeta`) and put back (`withStatelessMeta`);
 * - server results: `resultType: "complete"`, the server's identity and cache hints are read off
 *   and put back (`encodeResult`), so a result the codec leaves untyped fails; client results,
 *   notifications and fragments carry nothing of the era's own and pass unchanged, after the
 *   codec's own schema has checked them against their definition;
 * - errors: rebuilt as a `ProtocolError` and written back with `toJson`.
 *
 * Normalisations (the only differences allowed between an example and what the codec emits):
 * - N1: a cacheable result (`tools/list`, `prompts/list`, `resources/list`,
 *   `resources/templates/list`, `resources/read`) without cache hints gets the default ones
 *   (`ttlMs: 0`, `cacheScope: "private"`); the schema requires them on those results.
 * - N2: examples that break the official schema themselves are refused on input, as the schema
 *   demands, with the reason listed in `INVALID_EXAMPLES`; their re-encoding is still compared
 *   and validated. One does: `ReadResourceResultResponse/read-resource-result-response.json`
 *   lacks the required `cacheScope` (N1 then fills it).
 * Object key order is not compared.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { describe, expect, it } from "vitest";
import { ProtocolError } from "../../src/jsonrpc/errors.js";
import type { JsonRpcMessage } from "../../src/jsonrpc/messages.js";
import { explainMismatch } from "../../src/revisions/explain.js";
import {
  CACHEABLE_METHODS,
  DEFAULT_CACHE_HINTS,
  encodeResult,
  INPUT_REQUESTS,
  META,
  RESULT_COMPLETE,
  readRequestMeta,
  STATELESS_METHODS,
  STATELESS_REVISIONS,
  withStatelessMeta,
} from "../../src/revisions/index.js";

const addFormats = addFormatsModule.default;
const SPEC = join(import.meta.dirname, "../../spec");
const EXAMPLES = join(SPEC, "examples-2026-07-28");
const OFFICIAL = JSON.parse(readFileSync(join(SPEC, "schema/2026-07-28.json"), "utf8")) as Record<string, unknown>;
const revision = STATELESS_REVISIONS["2026-07-28"];

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(OFFICIAL, "urn:official:2026-07-28");

function validate(definition: string, value: unknown): string[] {
  const check = ajv.getSchema(`urn:official:2026-07-28#/$defs/${definition}`);
  if (check === undefined) return [`no definition ${definition}`];
  if (check(value)) return [];
  return (check.errors ?? []).map((error) => `${error.instancePath || "/"} ${error.message ?? ""}`);
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Result definition → the method whose result it is. */
const METHOD_OF_RESULT = new Map<string, string>(
  [...STATELESS_METHODS.clientRequests.values(), ...INPUT_REQUESTS.values()].map((spec) => [spec.result, spec.method]),
);
/** Results a client sends (inside `inputResponses`): the codec adds nothing to them. */
const CLIENT_RESULTS = new Set([...INPUT_REQUESTS.values()].map((spec) => spec.result));
const REQUEST_META_KEYS = [META.protocolVersion, META.clientCapabilities, META.clientInfo, META.logLevel];

/** `_meta` without `keys`; `undefined` when nothing else was in it. */
function withoutMeta(value: Json, keys: readonly string[]): Json {
  if (!isObject(value._meta)) return value;
  const meta = Object.fromEntries(Object.entries(value._meta).filter(([key]) => !keys.includes(key)));
  const { _meta: _dropped, ...rest } = value;
  return Object.keys(meta).length === 0 ? rest : { ...rest, _meta: meta };
}

/** Request params: the era's `_meta` read off and put back. */
function roundTripParams(params: Json): Json {
  if (!isObject(params._meta) || !(META.protocolVersion in params._meta)) return structuredClone(params);
  const meta = readRequestMeta(params);
  return withStatelessMeta(withoutMeta(params, REQUEST_META_KEYS), meta);
}

/**
 * A server result of `method`: the server identity, a `complete` result type and the cache hints
 * read off and put back by the codec. Any other result type (`input_required`) and a lone hint are
 * the handler's own fields and go through as they are.
 */
function roundTripResult(method: string | undefined, result: Json): Json {
  if (method === undefined) return structuredClone(result);
  const meta = isObject(result._meta) ? result._meta : {};
  const serverInfo = isObject(meta[META.serverInfo]) ? (meta[META.serverInfo] as Json) : undefined;
  const stripped = withoutMeta(result, [META.serverInfo]);
  const { resultType, ...untyped } = stripped;
  const neutral = resultType === RESULT_COMPLETE ? untyped : stripped;
  if (!CACHEABLE_METHODS.has(method)) return encodeResult(method, neutral, { serverInfo });
  const { ttlMs, cacheScope, ...bare } = neutral;
  const hinted = typeof ttlMs === "number" && (cacheScope === "public" || cacheScope === "private");
  if (!hinted) return encodeResult(method, neutral, { serverInfo });
  return encodeResult(method, bare, { serverInfo, cache: { ttlMs, cacheScope } });
}

/** N1, applied to what the example is compared with. */
function normalised(method: string | undefined, result: Json): Json {
  if (method === undefined || !CACHEABLE_METHODS.has(method) || result.resultType === "input_required") return result;
  return {
    ...result,
    ttlMs: result.ttlMs ?? DEFAULT_CACHE_HINTS.ttlMs,
    cacheScope: result.cacheScope ?? DEFAULT_CACHE_HINTS.cacheScope,
  };
}

interface Outcome {
  emitted: unknown;
  expected: unknown;
  problem: string | undefined;
}

/** Decodes and re-encodes one example of `definition`. */
function roundTrip(definition: string, example: Json): Outcome {
  const unchanged = (problem?: string) => ({ emitted: structuredClone(example), expected: example, problem });
  if (example.jsonrpc === "2.0" && typeof example.method === "string") {
    const message = example as unknown as JsonRpcMessage;
    const sender = STATELESS_METHODS.clientRequests.has(example.method) || example.method === "notifications/cancelled";
    const problem = revision.validateInbound(message, { role: sender ? "server" : "client" })?.message;
    if (!("id" in example) || !isObject(example.params)) return unchanged(problem);
    return { emitted: { ...example, params: roundTripParams(example.params) }, expected: example, problem };
  }
  if (example.jsonrpc === "2.0" && isObject(example.error)) {
    const error = ProtocolError.fromJson(example.error as never);
    const problem = revision.validateInbound(example as unknown as JsonRpcMessage, { role: "client" })?.message;
    return { emitted: { ...example, error: error.toJson() }, expected: example, problem };
  }
  if (example.jsonrpc === "2.0" && isObject(example.result)) {
    const method = METHOD_OF_RESULT.get(definition.replace(/Response$/, ""));
    const problem =
      method === undefined
        ? undefined
        : revision.validateInbound(example as unknown as JsonRpcMessage, { role: "client", request: { method } })
            ?.message;
    const emitted = { ...example, result: roundTripResult(method, example.result) };
    return { emitted, expected: { ...example, result: normalised(method, example.result) }, problem };
  }
  // A fragment is checked against its definition by the codec's own schema.
  const problem = explainMismatch("2026-07-28", definition, example, "");
  if (definition.endsWith("Error") && typeof example.code === "number") {
    return { emitted: ProtocolError.fromJson(example as never).toJson(), expected: example, problem };
  }
  if (definition.endsWith("Result") && !CLIENT_RESULTS.has(definition)) {
    const method = definition === "InputRequiredResult" ? "tools/call" : METHOD_OF_RESULT.get(definition);
    return { emitted: roundTripResult(method, example), expected: normalised(method, example), problem };
  }
  if (definition.endsWith("RequestParams")) {
    return { emitted: roundTripParams(example), expected: example, problem };
  }
  return unchanged(problem);
}

/** Examples that fail the official schema as published, and the codec's reason for refusing each. */
const INVALID_EXAMPLES: Readonly<Record<string, string>> = {
  "ReadResourceResultResponse/read-resource-result-response.json": "result.cacheScope is required",
};

const folders = readdirSync(EXAMPLES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

describe("official 2026-07-28 examples through the stateless codec", () => {
  it("finds the examples", () => {
    expect(folders.length).toBeGreaterThanOrEqual(88);
  });

  for (const definition of folders) {
    it(definition, () => {
      const files = readdirSync(join(EXAMPLES, definition)).filter((name) => name.endsWith(".json"));
      expect(files.length).toBeGreaterThan(0);
      for (const file of files) {
        const example = JSON.parse(readFileSync(join(EXAMPLES, definition, file), "utf8")) as Json;
        const { emitted, expected, problem } = roundTrip(definition, example);
        const known = INVALID_EXAMPLES[`${definition}/${file}`];
        if (known === undefined) expect(problem, `${file}: the codec refused it`).toBeUndefined();
        else expect(problem, `${file}: breaks the official schema`).toContain(known);
        expect(emitted, `${file}: re-encoded differently`).toEqual(expected);
        expect(validate(definition, emitted), `${file}: emitted message fails ${definition}`).toEqual([]);
      }
    });
  }
});
