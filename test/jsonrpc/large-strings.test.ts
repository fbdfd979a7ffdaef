/**
 * A message carrying a string of MiBs is written with that string joined in as it is rather than
 * copied through JSON.stringify; the text on the wire is the same, character for character, as
 * JSON.stringify's (with lone surrogates made U+FFFD), whatever the string holds and wherever it is.
 */
import { describe, expect, it, vi } from "vitest";
import { encodeFrame, wellFormedJson } from "../../src/jsonrpc/frame.js";
import { LARGE_STRING_LENGTH, spliceLargeStrings } from "../../src/jsonrpc/large-strings.js";

const BIG = "x".repeat(LARGE_STRING_LENGTH);
const expected = (value: unknown) => wellFormedJson(JSON.stringify(value));

describe("encodeFrame with a large string", () => {
  const cases: [string, unknown][] = [
    ["a tool's text result", { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: BIG }] } }],
    ["a request's argument", { jsonrpc: "2.0", id: "a", method: "tools/call", params: { arguments: { text: BIG } } }],
    ["two of them and a batch", [{ jsonrpc: "2.0", id: 1, result: { a: BIG, b: [BIG, 1, null, "é"] } }]],
    ["one just under the length, one at it", { a: BIG.slice(1), b: `${BIG.slice(1)}y` }],
    ["a string with a quote", { text: `${BIG}"` }],
    ["a string with a backslash", { text: `\\${BIG}` }],
    ["a string with a line break", { text: `${BIG}\n${BIG}` }],
    ["a string with NUL", { text: `${BIG}\u0000` }],
    ["a string with a surrogate pair", { text: `${BIG}😀` }],
    ["a string with a lone surrogate", { text: `${BIG}\ud83d`, also: BIG }],
    ["a string with non-ASCII text", { text: `é€${BIG}` }],
    ["a value with toJSON", { at: { toJSON: () => BIG }, list: [{ toJSON: () => `${BIG}😀` }] }],
    ["undefined and functions beside it", { a: undefined, b: () => 1, c: [undefined], text: BIG }],
    ["a key of MiBs", { [BIG]: BIG }],
    ["a lone surrogate elsewhere in the message", { note: "\udc00", text: BIG }],
  ];
  it.each(cases)("writes %s as JSON.stringify does", (_name, value) => {
    expect(encodeFrame(value) === expected(value)).toBe(true);
  });

  it("stringifies the whole when another string holds the placeholder, and still writes the same text", () => {
    const value = { text: BIG, trap: "\u0000\u0001mcp-handoff\u0001\u0000" };
    expect(spliceLargeStrings(value)).toBeUndefined();
    expect(encodeFrame(value) === expected(value)).toBe(true);
  });

  it("splices a clean string and leaves one that needs escapes to JSON.stringify", () => {
    // The positive control of the escape checks: the same message without escapes is spliced.
    expect(spliceLargeStrings({ text: BIG })).toBe(`{"text":"${BIG}"}`);
    // One that needs escapes: the replacer's pass is JSON.stringify's own text, not run again.
    expect(spliceLargeStrings({ text: `${BIG}"` }) === JSON.stringify({ text: `${BIG}"` })).toBe(true);
    expect(spliceLargeStrings({ text: "small" })).toBeUndefined();
  });

  it("writes a message whose large string lies past the search as JSON.stringify does", () => {
    const value = { items: Array.from({ length: 300 }, (_, i) => ({ i })), text: BIG };
    expect(spliceLargeStrings(value)).toBeUndefined();
    expect(encodeFrame(value) === expected(value)).toBe(true);
  });

  it("stringifies a message once when its large string needs an escape", () => {
    let calls = 0;
    const value = { text: `${BIG}\n`, probe: { toJSON: () => ++calls } };
    const framed = encodeFrame(value);
    expect(calls).toBe(1);
    expect(framed === `{"text":${JSON.stringify(`${BIG}\n`)},"probe":1}`).toBe(true);
  });

  it("reads no inherited property and no array iterator, as JSON.stringify reads neither", () => {
    const proto = {};
    Object.defineProperty(proto, "lazy", {
      enumerable: true,
      get() {
        throw new Error("read an inherited property");
      },
    });
    const inherited = { head: Object.assign(Object.create(proto) as object, { n: 1 }), text: BIG };
    expect(encodeFrame(inherited) === expected(inherited)).toBe(true);
    const list = [BIG];
    list[Symbol.iterator] = () => {
      throw new Error("iterated");
    };
    expect(encodeFrame({ list }) === expected({ list })).toBe(true);
  });

  it("looks into plain objects and arrays only: a boxed String or a class instance takes the ordinary path", () => {
    // A boxed String's keys are its every index; walking them would cost seconds for MiBs.
    const boxed = { text: new String(BIG) };
    expect(spliceLargeStrings(boxed)).toBeUndefined();
    expect(encodeFrame(boxed) === expected(boxed)).toBe(true);
    const instance = new (class {
      text = BIG;
    })();
    expect(spliceLargeStrings(instance)).toBeUndefined();
    expect(encodeFrame(instance) === expected(instance)).toBe(true);
    // The positive control: the same string in a plain object, and in one without a prototype.
    expect(spliceLargeStrings({ text: BIG })).toBe(`{"text":"${BIG}"}`);
    expect(spliceLargeStrings(Object.assign(Object.create(null) as object, { text: BIG }))).toBe(`{"text":"${BIG}"}`);
  });

  it("throws what JSON.stringify throws for a cycle", () => {
    const value: Record<string, unknown> = { text: BIG };
    value.self = value;
    expect(() => encodeFrame(value)).toThrow(TypeError);
  });
});

describe("the search for a large string", () => {
  it("runs only while large messages are being written, and stops 64 messages after the last", async () => {
    vi.resetModules();
    const fresh = await import("../../src/jsonrpc/frame.js");
    let reads = 0;
    // An own getter of a plain object: JSON.stringify reads it once, the search once more.
    const probe = () => ({
      get text() {
        reads++;
        return "small";
      },
    });
    const readsOf = (value: unknown) => {
      reads = 0;
      fresh.encodeFrame(value);
      return reads;
    };
    // A process that has written nothing large does not search.
    expect(readsOf(probe())).toBe(1);
    // The first large message is stringified as any other, and turns the search on...
    const first = { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: BIG }] } };
    expect(fresh.encodeFrame(first) === expected(first)).toBe(true);
    expect(readsOf(probe())).toBe(2);
    // ...for the 64 messages that follow it.
    for (let i = 0; i < 63; i++) fresh.encodeFrame({ n: i });
    expect(readsOf(probe())).toBe(1);
  });
});
