import { describe, expect, test } from "vitest";
import type { MethodTable } from "../../src/revisions/method-table.js";
import { viewOf } from "../../src/revisions/schema-walk.js";
import { definitionsOf } from "../../src/revisions/schemas.js";
import { STATEFUL_REVISIONS } from "../../src/revisions/stateful/revisions.js";
import { STATEFUL_VERSIONS, type StatefulVersion } from "../../src/revisions/versions.js";

/** `method -> definition` for every member of a union such as `ClientRequest`, read from the schema. */
function unionMethods(version: StatefulVersion, union: string): Map<string, string> {
  const definitions = definitionsOf(version);
  const members = definitions[union]?.anyOf ?? [];
  const methods = new Map<string, string>();
  for (const member of members) {
    const name = String(member.$ref).split("/").pop() ?? "";
    const method = definitions[name]?.properties?.method?.const;
    expect(typeof method, `${union} member ${name} has a method const`).toBe("string");
    methods.set(method as string, name);
  }
  return methods;
}

function resultMembers(version: StatefulVersion, union: string): Set<string> {
  const members = definitionsOf(version)[union]?.anyOf ?? [];
  return new Set(members.map((member) => String(member.$ref).split("/").pop() ?? ""));
}

const UNIONS: ReadonlyArray<[keyof MethodTable, string, string | undefined]> = [
  ["clientRequests", "ClientRequest", "ServerResult"],
  ["serverRequests", "ServerRequest", "ClientResult"],
  ["clientNotifications", "ClientNotification", undefined],
  ["serverNotifications", "ServerNotification", undefined],
];

describe.each(STATEFUL_VERSIONS)("method table of %s", (version) => {
  const table = STATEFUL_REVISIONS[version].methods;

  test.each(UNIONS)("%s lists exactly the methods of the schema's %s union", (key, union) => {
    const fromSchema = unionMethods(version, union);
    const fromTable = new Map(
      [...table[key].values()].map((spec) => [spec.method, "request" in spec ? spec.request : spec.notification]),
    );
    expect(fromTable).toEqual(fromSchema);
  });

  test.each(UNIONS.filter(([, , results]) => results !== undefined))(
    "every %s result is a member of the answering side's result union",
    (key, _union, results) => {
      const allowed = resultMembers(version, results as string);
      for (const spec of table[key].values()) {
        if (!("result" in spec)) continue;
        const result = spec.result === "EmptyResult" ? "Result" : spec.result;
        expect(allowed.has(result), `${spec.method} -> ${spec.result}`).toBe(true);
        if (spec.taskResult !== undefined)
          expect(allowed.has(spec.taskResult) || spec.taskResult === "CreateTaskResult").toBe(true);
        expect(definitionsOf(version)[spec.result], `${spec.result} exists`).toBeDefined();
      }
    },
  );

  test("a request has a task result exactly when its params accept `task`", () => {
    for (const key of ["clientRequests", "serverRequests"] as const) {
      for (const spec of table[key].values()) {
        if (!("request" in spec)) continue;
        const params = viewOf(version, definitionsOf(version)[spec.request] ?? {}).properties.params;
        const shapes = params === undefined ? [] : (viewOf(version, params).branches ?? [params]);
        const acceptsTask = shapes.some((shape) => "task" in viewOf(version, shape).properties);
        expect(spec.taskResult !== undefined, `${spec.method}`).toBe(acceptsTask);
      }
    }
  });
});

describe("what each revision supports", () => {
  test("elicitation/create exists from 2025-06-18 on, and only as a server request", () => {
    expect(STATEFUL_REVISIONS["2025-03-26"].hasRequest("elicitation/create", "server")).toBe(false);
    expect(STATEFUL_REVISIONS["2025-06-18"].hasRequest("elicitation/create", "server")).toBe(true);
    expect(STATEFUL_REVISIONS["2025-11-25"].hasRequest("elicitation/create", "client")).toBe(false);
  });

  test("the elicitation completion notification exists only in 2025-11-25", () => {
    for (const version of STATEFUL_VERSIONS) {
      expect(STATEFUL_REVISIONS[version].hasNotification("notifications/elicitation/complete", "server")).toBe(
        version === "2025-11-25",
      );
    }
  });

  test("batches only in 2025-03-26; elicitation modes grow with the revisions", () => {
    expect(STATEFUL_VERSIONS.filter((v) => STATEFUL_REVISIONS[v].supportsBatch)).toEqual(["2025-03-26"]);
    expect(STATEFUL_REVISIONS["2024-11-05"].elicitationModes).toEqual([]);
    expect(STATEFUL_REVISIONS["2025-03-26"].elicitationModes).toEqual([]);
    expect(STATEFUL_REVISIONS["2025-06-18"].elicitationModes).toEqual(["form"]);
    expect(STATEFUL_REVISIONS["2025-11-25"].elicitationModes).toEqual(["form", "url"]);
  });

  test("method names that look like object keys are not methods", () => {
    for (const version of STATEFUL_VERSIONS) {
      expect(STATEFUL_REVISIONS[version].hasRequest("constructor", "client")).toBe(false);
      expect(STATEFUL_REVISIONS[version].hasNotification("__proto__", "server")).toBe(false);
    }
  });
});
