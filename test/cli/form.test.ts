import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { FormSchemaError, formFields } from "../../src/cli/form-fields.js";
import { askField, promptForm } from "../../src/cli/form-prompt.js";
import { clackPrompter } from "../../src/cli/prompter.js";
import { type Answer, type Asked, CANCELLED, ScriptedPrompter } from "./support.js";

const colours = ["red", "green", "blue"];
const titled = [
  { const: "#f00", title: "Red" },
  { const: "#0f0", title: "Green" },
];

/** One property schema asked on its own, with the scripted answers; returns the value and what was asked. */
async function ask(schema: Record<string, unknown>, answers: Answer[], required = true) {
  const [field] = formFields({ type: "object", properties: { f: schema }, required: required ? ["f"] : [] });
  if (!field) throw new Error("no field");
  const prompter = new ScriptedPrompter(answers);
  const value = await askField(field, prompter);
  return { value, asked: prompter.asked };
}

/** Runs the prompt's validator on a value, as the terminal would before accepting it. */
const typing =
  (...tries: string[]) =>
  (asked: Asked) => {
    if (asked.kind !== "text") throw new Error("not a text prompt");
    const accepted = tries.find((t) => asked.prompt.validate?.(t) === undefined);
    return accepted ?? tries.at(-1);
  };

describe("form fields by schema kind", () => {
  it("asks a string with a text prompt pre-filled with its default, with a format hint", async () => {
    const { value, asked } = await ask(
      { type: "string", title: "Email", description: "Where we write", format: "email", default: "a@b.co" },
      ["me@example.com"],
    );
    expect(value).toBe("me@example.com");
    expect(asked[0]).toMatchObject({
      kind: "text",
      prompt: { message: "Email [email] — Where we write", initialValue: "a@b.co", placeholder: "name@example.com" },
    });
  });

  it("checks strings against format, length and required before accepting them", async () => {
    const asked: string[] = [];
    const record = (asked_: Asked) => {
      if (asked_.kind !== "text") throw new Error("not text");
      for (const value of ["", "ab", "not-a-date", "2025-02-30x", "2025-01-31"]) {
        asked.push(`${value || "(empty)"}: ${asked_.prompt.validate?.(value) ?? "ok"}`);
      }
      return "2025-01-31";
    };
    const { value } = await ask({ type: "string", format: "date", minLength: 3 }, [record]);
    expect(value).toBe("2025-01-31");
    expect(asked[0]).toBe("(empty): This field is required");
    expect(asked.slice(1, 4).every((line) => !line.endsWith(": ok"))).toBe(true);
    expect(asked[4]).toBe("2025-01-31: ok");
  });

  it("leaves an optional string out when it is left empty", async () => {
    const { value, asked } = await ask({ type: "string", title: "Nickname" }, [typing("")], false);
    expect(value).toBeUndefined();
    expect(asked[0]?.prompt.message).toBe("Nickname (optional)");
  });

  it("asks numbers and integers as text, pre-filled, and returns numbers within the bounds", async () => {
    const number = await ask({ type: "number", minimum: 0, maximum: 10, default: 2.5 }, [typing("abc", "11", "7.5")]);
    expect(number.value).toBe(7.5);
    expect(number.asked[0]).toMatchObject({
      kind: "text",
      prompt: { initialValue: "2.5", placeholder: "a number from 0 to 10" },
    });
    const integer = await ask({ type: "integer", default: 3 }, [typing("1.5", "4")]);
    expect(integer.value).toBe(4);
    expect(integer.asked[0]).toMatchObject({ prompt: { initialValue: "3", placeholder: "a whole number" } });
  });

  it("asks a boolean with a confirm pre-set to its default", async () => {
    const { value, asked } = await ask({ type: "boolean", title: "Subscribe", default: true }, [false]);
    expect(value).toBe(false);
    expect(asked[0]).toMatchObject({ kind: "confirm", prompt: { message: "Subscribe", initialValue: true } });
  });

  it("asks an untitled single-select enum with a select, default pre-selected", async () => {
    const { value, asked } = await ask({ type: "string", enum: colours, default: "green" }, ["blue"]);
    expect(value).toBe("blue");
    expect(asked[0]).toMatchObject({
      kind: "select",
      prompt: { initialValue: "green", choices: colours.map((c) => ({ value: c, label: c })) },
    });
  });

  it("asks a titled single-select enum (oneOf const/title) showing titles and answering consts", async () => {
    const { value, asked } = await ask({ type: "string", oneOf: titled, default: "#0f0" }, ["#f00"]);
    expect(value).toBe("#f00");
    expect(asked[0]).toMatchObject({
      kind: "select",
      prompt: {
        initialValue: "#0f0",
        choices: [
          { value: "#f00", label: "Red" },
          { value: "#0f0", label: "Green" },
        ],
      },
    });
  });

  it("reads the older enumNames labels too", async () => {
    const { asked } = await ask({ type: "string", enum: ["a", "b"], enumNames: ["Alpha", "Beta"] }, ["a"]);
    expect(asked[0]).toMatchObject({ prompt: { choices: [{ label: "Alpha" }, { label: "Beta" }] } });
  });

  it("offers to leave an optional select empty", async () => {
    const { value, asked } = await ask(
      { type: "string", enum: colours },
      [(a: Asked) => (a.kind === "select" ? a.prompt.choices.at(-1)?.value : undefined)],
      false,
    );
    expect(value).toBeUndefined();
    expect(asked[0]?.kind === "select" && asked[0].prompt.choices.at(-1)?.label).toBe("(leave empty)");
  });

  it("asks an untitled multi-select enum with a multiselect, defaults ticked, within minItems/maxItems", async () => {
    const { value, asked } = await ask(
      { type: "array", items: { type: "string", enum: colours }, minItems: 1, maxItems: 2, default: ["red"] },
      [
        ["red", "green", "blue"],
        ["red", "blue"],
      ],
    );
    expect(value).toEqual(["red", "blue"]);
    expect(asked[0]).toMatchObject({
      kind: "multiselect",
      prompt: { initialValues: ["red"], required: true, message: "f — choose 1 to 2" },
    });
    expect(asked[1]).toMatchObject({
      prompt: { initialValues: ["red", "green", "blue"], message: "f — choose 1 to 2 (you chose 3)" },
    });
  });

  it("asks a titled multi-select enum (items.anyOf) showing titles and answering consts", async () => {
    const { value, asked } = await ask({ type: "array", items: { anyOf: titled }, default: ["#f00", "#0f0"] }, [
      ["#0f0"],
    ]);
    expect(value).toEqual(["#0f0"]);
    expect(asked[0]).toMatchObject({
      kind: "multiselect",
      prompt: { initialValues: ["#f00", "#0f0"], required: false, choices: [{ label: "Red" }, { label: "Green" }] },
    });
  });

  it("ignores defaults that do not fit the field", () => {
    const fields = formFields({
      type: "object",
      properties: {
        s: { type: "string", enum: ["a"], default: "z" },
        i: { type: "integer", default: 1.5 },
        m: { type: "array", items: { enum: ["a"] }, default: ["a", "z"] },
        b: { type: "boolean", default: "yes" },
      },
    });
    expect(fields.map((f) => f.default)).toEqual([undefined, undefined, undefined, undefined]);
  });

  it("refuses a property it cannot ask for", () => {
    expect(() => formFields({ type: "object", properties: { o: { type: "object" } } })).toThrow(FormSchemaError);
    expect(() =>
      formFields({ type: "object", properties: { a: { type: "array", items: { type: "number" } } } }),
    ).toThrow(/"a" has a type this client cannot ask for/);
  });
});

describe("form elicitation", () => {
  const server = { name: "crm", version: "2.0.0" };
  const params = {
    mode: "form" as const,
    message: "Contact details please",
    requestedSchema: {
      type: "object" as const,
      properties: {
        name: { type: "string" as const, title: "Name", default: "Ada" },
        age: { type: "integer" as const },
        newsletter: { type: "boolean" as const, default: false },
      },
      required: ["name"],
    },
  };

  it("shows who asks and why, then answers accept with one value per field", async () => {
    let shown = "";
    const prompter = new ScriptedPrompter(["accept", "Grace", typing("36"), true]);
    const write = (text: string) => {
      shown += text;
    };
    const result = await promptForm(params, server, { prompter, write });
    expect(result).toEqual({ action: "accept", content: { name: "Grace", age: 36, newsletter: true } });
    expect(shown).toContain("crm asks for information:\n  Contact details please\n");
    expect(prompter.asked.map((a) => a.kind)).toEqual(["select", "text", "text", "confirm"]);
  });

  it("answers cancel, saying so, when stdin ends at a terminal prompt", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let drawn = "";
    output.on("data", (chunk: Buffer) => {
      drawn += chunk.toString("utf8");
    });
    const prompter = clackPrompter(input, output);
    const answered = promptForm(params, server, { prompter, write: () => {} });
    // The user chose to answer, then stdin ended at the first field.
    input.write("\r");
    setImmediate(() => input.end());
    expect(await answered).toEqual({ action: "cancel" });
    expect(drawn).toContain("Input ended; cancelled.\n");
    // Any prompt after that is cancelled at once rather than left waiting.
    expect(await prompter.confirm({ message: "More?" })).toBe(CANCELLED);
  });

  it("declines without asking any field", async () => {
    const prompter = new ScriptedPrompter(["decline"]);
    expect(await promptForm(params, server, { prompter, write: () => {} })).toEqual({ action: "decline" });
    expect(prompter.asked).toHaveLength(1);
  });

  it("cancels on Ctrl-C at the first question or at any field", async () => {
    expect(await promptForm(params, server, { prompter: new ScriptedPrompter([CANCELLED]), write: () => {} })).toEqual({
      action: "cancel",
    });
    const midway = new ScriptedPrompter(["accept", "Grace", CANCELLED]);
    expect(await promptForm(params, server, { prompter: midway, write: () => {} })).toEqual({ action: "cancel" });
  });
});
