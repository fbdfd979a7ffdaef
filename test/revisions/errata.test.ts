import { describe, expect, test } from "vitest";
import { schema as official20251125 } from "../../src/revisions/generated/2025-11-25.schema.js";
import { schemaDocument } from "../../src/revisions/schemas.js";
import { STATEFUL_REVISIONS } from "../../src/revisions/stateful/revisions.js";
import { STATEFUL_VERSIONS } from "../../src/revisions/versions.js";

describe("corrections to the released schemas", () => {
  const answer = (content: Record<string, unknown>) => ({
    jsonrpc: "2.0" as const,
    id: 1,
    result: { action: "accept", content },
  });
  const request = { method: "elicitation/create", params: { message: "Score?" } };

  test.each(["2025-06-18", "2025-11-25"] as const)(
    "%s: an accepted form may carry a fractional number, as schema.ts allows",
    (version) => {
      const revision = STATEFUL_REVISIONS[version];
      const content = { name: "John Doe", age: 30, score: 95.5, verified: true };
      expect(revision.validateOutbound(answer(content), { role: "client", request })).toBeUndefined();
      expect(revision.validateInbound(answer(content), { role: "server", request })).toBeUndefined();
      expect(revision.validateOutbound(answer({ score: { nested: 1 } }), { role: "client", request })).toBeDefined();
    },
  );

  test("every other definition is the official one", () => {
    const corrected = schemaDocument("2025-11-25").$defs ?? {};
    const original = official20251125.$defs ?? {};
    const changed = Object.keys(original).filter(
      (name) => JSON.stringify(corrected[name]) !== JSON.stringify(original[name]),
    );
    expect(changed).toEqual(["ElicitResult"]);
    for (const version of STATEFUL_VERSIONS) expect(schemaDocument(version).$schema).toBeDefined();
  });
});
