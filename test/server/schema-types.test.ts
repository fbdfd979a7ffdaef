/** The argument types a tool handler is given, checked by the type checker (`npm run typecheck`). */
import { describe, expectTypeOf, it } from "vitest";
import * as z from "zod";
import { McpServer } from "../../src/server/index.js";

const server = new McpServer({ name: "types", version: "1" });
const done = { content: [] };

describe("handler argument types", () => {
  it("reads a JSON Schema written as const: required, optional, arrays, enums, extra keys", () => {
    const inputSchema = {
      type: "object",
      properties: {
        text: { type: "string" },
        times: { type: "integer" },
        tags: { type: "array", items: { type: "string" } },
        mode: { enum: ["loud", "quiet"] },
        note: { type: ["string", "null"] },
      },
      required: ["text", "tags"],
    } as const;
    server.registerTool("typed", { inputSchema }, (args) => {
      expectTypeOf(args.text).toEqualTypeOf<string>();
      expectTypeOf(args.times).toEqualTypeOf<number | undefined>();
      expectTypeOf(args.tags).toEqualTypeOf<string[]>();
      expectTypeOf(args.mode).toEqualTypeOf<"loud" | "quiet" | undefined>();
      expectTypeOf(args.note).toEqualTypeOf<string | null | undefined>();
      expectTypeOf(args.other).toEqualTypeOf<unknown>();
      return done;
    });
  });

  it("gives a record for JSON Schema that is not const, and zod's output type for zod", () => {
    const inputSchema = { type: "object", properties: { text: { type: "string" } } };
    server.registerTool("plain", { inputSchema }, (args) => {
      expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
      return done;
    });
    server.registerTool("zod", { inputSchema: { n: z.number().default(1), s: z.string().optional() } }, (args) => {
      expectTypeOf(args).toEqualTypeOf<{ n: number; s?: string | undefined }>();
      return done;
    });
  });
});
