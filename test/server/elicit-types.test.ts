/**
 * The type of `answer.content` of a form elicitation, read from its `requestedSchema` (checked
 * by the type checker: `npm run typecheck` includes the tests).
 */
import { describe, expectTypeOf, it } from "vitest";
import type { FormElicitation, RequestContext } from "../../src/server/index.js";

/**
 * Each check is type-checked, never run: a handler body with `ctx` as handlers get it.
 */
const typed = (check: (ctx: RequestContext) => Promise<void>) => expectTypeOf(check).toBeFunction();

describe("ctx.elicit: the answer's content type", () => {
  it("reads a schema written inline: required and optional fields, numbers, booleans, enums", () => {
    typed(async (ctx) => {
      const answer = await ctx.elicit({
        message: "Who are you?",
        requestedSchema: {
          type: "object",
          properties: {
            name: { type: "string", title: "Name" },
            age: { type: "integer" },
            subscribe: { type: "boolean" },
            plan: { type: "string", enum: ["free", "pro"] },
            colour: {
              type: "string",
              oneOf: [
                { const: "red", title: "Red" },
                { const: "blue", title: "Blue" },
              ],
            },
            tags: { type: "array", items: { type: "string", enum: ["a", "b"] } },
            toppings: {
              type: "array",
              items: {
                anyOf: [
                  { const: "ham", title: "Ham" },
                  { const: "egg", title: "Egg" },
                ],
              },
            },
          },
          required: ["name", "plan"],
        },
      });
      expectTypeOf(answer.action).toEqualTypeOf<"accept" | "decline" | "cancel">();
      const content = answer.content;
      if (content === undefined) return;
      expectTypeOf(content.name).toEqualTypeOf<string>();
      expectTypeOf(content.plan).toEqualTypeOf<"free" | "pro">();
      expectTypeOf(content.age).toEqualTypeOf<number | undefined>();
      expectTypeOf(content.subscribe).toEqualTypeOf<boolean | undefined>();
      expectTypeOf(content.colour).toEqualTypeOf<"red" | "blue" | undefined>();
      expectTypeOf(content.tags).toEqualTypeOf<("a" | "b")[] | undefined>();
      expectTypeOf(content.toppings).toEqualTypeOf<("ham" | "egg")[] | undefined>();
      // @ts-expect-error: the schema has no field `email`.
      content.email;
      // @ts-expect-error: `name` is a string, not a number.
      const n: number = content.name;
      void n;
    });
  });

  it("reads a schema written as const beforehand, the same way", () => {
    typed(async (ctx) => {
      const requestedSchema = {
        type: "object",
        properties: { account: { type: "string" }, count: { type: "number" } },
        required: ["account"],
      } as const;
      const answer = await ctx.elicit({ message: "Which account?", requestedSchema });
      expectTypeOf(answer.content?.account).toEqualTypeOf<string | undefined>();
      expectTypeOf(answer.content).toEqualTypeOf<{ account: string; count?: number } | undefined>();
    });
  });

  it("keeps the wire's content record for a schema whose fields the type checker cannot know", () => {
    typed(async (ctx) => {
      const fields: Record<string, { type: "string" }> = { name: { type: "string" } };
      const params: FormElicitation = { message: "x", requestedSchema: { type: "object", properties: fields } };
      const answer = await ctx.elicit(params);
      expectTypeOf(answer.content).toEqualTypeOf<{ [k: string]: string[] | string | number | boolean } | undefined>();
    });
  });

  it("still types a URL-mode answer with its elicitationId and no content", () => {
    typed(async (ctx) => {
      const answer = await ctx.elicit({ mode: "url", url: "https://example.com/connect", message: "Connect." });
      expectTypeOf(answer.elicitationId).toEqualTypeOf<string>();
    });
  });

  it("still refuses a schema the form mode cannot carry", () => {
    typed(async (ctx) => {
      // @ts-expect-error: a nested object is not a primitive field.
      await ctx.elicit({
        message: "x",
        requestedSchema: { type: "object", properties: { address: { type: "object", properties: {} } } },
      });
    });
  });
});
