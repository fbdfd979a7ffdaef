/**
 * The values a client declares in `initialize` are kept as one shared frozen copy per distinct
 * value: each session still reads exactly what its client declared.
 */
import { describe, expect, it } from "vitest";
import { intern } from "../../src/server/interned.js";

describe("intern", () => {
  it("gives equal declarations one shared copy, equal to what was declared", () => {
    const first = intern({ name: "shared-client", version: "1.0.0" });
    const second = intern({ name: "shared-client", version: "1.0.0" });
    expect(second).toBe(first);
    expect(first).toEqual({ name: "shared-client", version: "1.0.0" });
  });

  it("keeps different declarations apart", () => {
    const one = intern({ name: "client-one", version: "1.0.0" });
    const two = intern({ name: "client-two", version: "1.0.0" });
    expect(one).not.toBe(two);
    expect(two).toEqual({ name: "client-two", version: "1.0.0" });
  });

  it("freezes the shared copy all the way down", () => {
    const capabilities = intern({ sampling: {}, roots: { listChanged: true } });
    expect(Object.isFrozen(capabilities)).toBe(true);
    expect(Object.isFrozen(capabilities.roots)).toBe(true);
  });

  it("keeps a value that is more than JSON (an in-process peer's) as given", () => {
    const withUndefined = { elicitation: undefined, roots: {} };
    expect(intern(withUndefined)).toBe(withUndefined);
    const withDate = { when: new Date(0) };
    expect(intern(withDate)).toBe(withDate);
    const sparse = { list: new Array<number>(3) };
    expect(intern(sparse)).toBe(sparse);
  });
});
