/**
 * The stateless era's hand-written names and shapes (src/revisions/stateless/wire.ts) agree with
 * the revision's official schema: at run time against the vendored schema itself, and at compile
 * time (tsc reads this file) against the wire types generated from it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, expectTypeOf, test } from "vitest";
import type * as Generated from "../../src/revisions/generated/2026-07-28.js";
import {
  INPUT_REQUEST_METHODS,
  type InputRequestMethod,
  type InputRequiredResult,
  META,
  MRTR_METHODS,
  RESULT_INPUT_REQUIRED,
  StatelessErrorCode,
} from "../../src/revisions/stateless/index.js";

interface Definition {
  $ref?: string;
  anyOf?: Definition[];
  allOf?: Definition[];
  properties?: Record<string, Definition & { const?: unknown }>;
}
const defs = (
  JSON.parse(readFileSync(join(import.meta.dirname, "../../spec/schema/2026-07-28.json"), "utf8")) as {
    $defs: Record<string, Definition>;
  }
).$defs;

function definition(name: string): Definition {
  const found = defs[name];
  if (found === undefined) throw new Error(`The 2026-07-28 schema has no ${name}`);
  return found;
}
const refName = (ref: Definition) => String(ref.$ref).split("/").pop() ?? "";
const methodOf = (request: string) => definition(request).properties?.method?.const;
/** The `code` an error definition fixes, whether it is the error object or the whole response. */
function codeOf(name: string): unknown {
  const def = definition(name);
  const error = def.properties?.error ?? def;
  return [error, ...(error.allOf ?? [])].map((part) => part.properties?.code?.const).find((c) => c !== undefined);
}

describe("stateless wire names against the 2026-07-28 schema", () => {
  test("the input request methods are exactly the schema's InputRequest members", () => {
    const members = (definition("InputRequest").anyOf ?? []).map((ref) => methodOf(refName(ref)));
    expect([...INPUT_REQUEST_METHODS].sort()).toEqual([...members].sort());
    expectTypeOf<(typeof INPUT_REQUEST_METHODS)[number]>().toEqualTypeOf<Generated.InputRequest["method"]>();
    expectTypeOf<InputRequestMethod>().toEqualTypeOf<Generated.InputRequest["method"]>();
  });

  test("the multi round-trip methods are exactly the client requests whose params carry requestState", () => {
    const rounds = (definition("ClientRequest").anyOf ?? [])
      .map((ref) => refName(ref))
      .filter((request) => {
        const params = definition(request).properties?.params;
        const name = params?.$ref === undefined ? undefined : refName(params);
        const properties = name === undefined ? params?.properties : definition(name).properties;
        return properties?.requestState !== undefined && properties.inputResponses !== undefined;
      })
      .map(methodOf);
    expect([...MRTR_METHODS].sort()).toEqual([...rounds].sort());
  });

  test("every _meta key is a property of the schema's meta object for its message", () => {
    const keys = (name: string) => Object.keys(definition(name).properties ?? {});
    const request = keys("RequestMetaObject");
    for (const key of [META.protocolVersion, META.clientCapabilities, META.clientInfo, META.logLevel]) {
      expect(request).toContain(key);
    }
    expect(keys("ResultMetaObject")).toContain(META.serverInfo);
    expect(keys("NotificationMetaObject")).toContain(META.subscriptionId);
  });

  test("the error codes are the schema's", () => {
    expect(StatelessErrorCode).toEqual({
      HeaderMismatch: codeOf("HeaderMismatchError"),
      MissingRequiredClientCapability: codeOf("MissingRequiredClientCapabilityError"),
      UnsupportedProtocolVersion: codeOf("UnsupportedProtocolVersionError"),
      ResourceNotFound: codeOf("InvalidParamsError"),
    });
  });

  test("an InputRequiredResult has the schema's fields, and the generated type accepts its resultType and requestState", () => {
    const result: InputRequiredResult = { resultType: RESULT_INPUT_REQUIRED, requestState: "opaque" };
    const declared: (keyof InputRequiredResult)[] = ["_meta", "inputRequests", "requestState", "resultType"];
    expect(Object.keys(definition("InputRequiredResult").properties ?? {}).sort()).toEqual(declared);
    expectTypeOf(result.resultType).toExtend<Generated.InputRequiredResult["resultType"]>();
    expectTypeOf(result.requestState).toExtend<Generated.InputRequiredResult["requestState"]>();
  });
});
