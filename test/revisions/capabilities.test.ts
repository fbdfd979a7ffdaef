import { describe, expect, test } from "vitest";
import { SdkError } from "../../src/jsonrpc/errors.js";
import {
  assertClientCapability,
  assertServerCapability,
  clientElicitationModes,
} from "../../src/revisions/capabilities.js";

describe("clientElicitationModes", () => {
  test("no elicitation capability: no modes", () => {
    expect(clientElicitationModes({})).toEqual([]);
    expect(clientElicitationModes(undefined)).toEqual([]);
  });

  test("an empty elicitation object means form only", () => {
    expect(clientElicitationModes({ elicitation: {} })).toEqual(["form"]);
  });

  test("explicit modes are taken as declared", () => {
    expect(clientElicitationModes({ elicitation: { url: {} } })).toEqual(["url"]);
    expect(clientElicitationModes({ elicitation: { form: {}, url: {} } })).toEqual(["form", "url"]);
  });

  test("garbage from the wire is no capability", () => {
    expect(clientElicitationModes({ elicitation: true } as unknown as Record<string, unknown>)).toEqual([]);
  });
});

describe("assertClientCapability (server sending to a client)", () => {
  test("sampling/createMessage and roots/list need their capabilities", () => {
    const error = assertClientCapability({}, "sampling/createMessage");
    expect(error).toBeInstanceOf(SdkError);
    expect(error?.code).toBe("CAPABILITY_NOT_SUPPORTED");
    expect(error?.message).toContain("sampling");
    expect(assertClientCapability({ sampling: {} }, "sampling/createMessage")).toBeUndefined();
    expect(assertClientCapability({}, "roots/list")?.code).toBe("CAPABILITY_NOT_SUPPORTED");
    expect(assertClientCapability({ roots: {} }, "roots/list")).toBeUndefined();
  });

  test("sampling with tools needs sampling.tools", () => {
    expect(assertClientCapability({ sampling: {} }, "sampling/createMessage", { tools: [] })?.message).toContain(
      "sampling.tools",
    );
    expect(assertClientCapability({ sampling: { tools: {} } }, "sampling/createMessage", { tools: [] })).toBe(
      undefined,
    );
  });

  test("an empty elicitation capability allows form mode and refuses URL mode", () => {
    const caps = { elicitation: {} };
    expect(assertClientCapability(caps, "elicitation/create", { message: "m", requestedSchema: {} })).toBe(undefined);
    expect(assertClientCapability(caps, "elicitation/create", { mode: "form" })).toBeUndefined();
    const error = assertClientCapability(caps, "elicitation/create", { mode: "url" });
    expect(error?.code).toBe("CAPABILITY_NOT_SUPPORTED");
    expect(error?.message).toContain("elicitation.url");
  });

  test("a URL-only client refuses form mode", () => {
    expect(assertClientCapability({ elicitation: { url: {} } }, "elicitation/create", { mode: "form" })?.code).toBe(
      "CAPABILITY_NOT_SUPPORTED",
    );
    expect(assertClientCapability({ elicitation: { url: {} } }, "elicitation/create", { mode: "url" })).toBe(undefined);
  });

  test("no elicitation capability refuses every mode", () => {
    expect(assertClientCapability({}, "elicitation/create", { mode: "form" })?.message).toContain("elicitation");
  });

  test("ping and notifications need nothing", () => {
    expect(assertClientCapability({}, "ping")).toBeUndefined();
    expect(assertClientCapability({}, "notifications/message")).toBeUndefined();
  });
});

describe("assertServerCapability (client sending to a server)", () => {
  test.each([
    ["tools/list", "tools"],
    ["tools/call", "tools"],
    ["resources/read", "resources"],
    ["resources/templates/list", "resources"],
    ["prompts/get", "prompts"],
    ["completion/complete", "completions"],
    ["logging/setLevel", "logging"],
  ])("%s needs %s", (method, capability) => {
    const error = assertServerCapability({}, method);
    expect(error?.code).toBe("CAPABILITY_NOT_SUPPORTED");
    expect(error?.message).toContain(capability);
    expect(assertServerCapability({ [capability]: {} }, method)).toBeUndefined();
  });

  test("resources/subscribe needs resources.subscribe, not just resources", () => {
    expect(assertServerCapability({ resources: {} }, "resources/subscribe")?.message).toContain("resources.subscribe");
    expect(assertServerCapability({ resources: { subscribe: false } }, "resources/subscribe")).toBeInstanceOf(SdkError);
    expect(assertServerCapability({ resources: { subscribe: true } }, "resources/subscribe")).toBeUndefined();
  });

  test("initialize, ping and unknown methods need nothing here", () => {
    expect(assertServerCapability({}, "initialize")).toBeUndefined();
    expect(assertServerCapability({}, "ping")).toBeUndefined();
    expect(assertServerCapability({}, "constructor")).toBeUndefined();
  });
});
