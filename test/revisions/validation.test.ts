import { describe, expect, test } from "vitest";
import { ErrorCode, ProtocolError, SdkError } from "../../src/jsonrpc/errors.js";
import type { JsonRpcMessage } from "../../src/jsonrpc/messages.js";
import { STATEFUL_REVISIONS } from "../../src/revisions/stateful/revisions.js";
import { validatorFor } from "../../src/revisions/validators.js";
import { STATEFUL_VERSIONS } from "../../src/revisions/versions.js";

const initialize: JsonRpcMessage = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: {
    protocolVersion: "2025-11-25",
    capabilities: { roots: { listChanged: true } },
    clientInfo: { name: "test-client", version: "1.0.0" },
  },
};

const callTool = (params: Record<string, unknown>): JsonRpcMessage => ({
  jsonrpc: "2.0",
  id: "call-1",
  method: "tools/call",
  params,
});

describe.each(STATEFUL_VERSIONS)("validation in %s", (version) => {
  const revision = STATEFUL_REVISIONS[version];

  test("a well-formed initialize and tools/call are accepted by the server", () => {
    expect(revision.validateInbound(initialize, { role: "server" })).toBeUndefined();
    expect(
      revision.validateInbound(callTool({ name: "echo", arguments: { text: "hi" } }), { role: "server" }),
    ).toBeUndefined();
  });

  test("a tools/call whose name is not a string is -32602 naming params.name", () => {
    const error = revision.validateInbound(callTool({ name: 42 }), { role: "server" });
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error?.code).toBe(ErrorCode.InvalidParams);
    expect(error?.message).toBe("Invalid params for tools/call: params.name must be string");
  });

  test("a missing required field is named", () => {
    const error = revision.validateInbound(
      { ...initialize, params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "x" } } },
      { role: "server" },
    );
    expect(error?.message).toBe("Invalid params for initialize: params.clientInfo.version is required");
  });

  test("a method the revision lacks is -32601", () => {
    const error = revision.validateInbound(
      { jsonrpc: "2.0", id: 1, method: "tools/run", params: {} },
      { role: "server" },
    );
    expect(error?.code).toBe(ErrorCode.MethodNotFound);
    expect(error?.message).toContain('"tools/run"');
  });

  test("a client request sent by the server is -32601 at the client", () => {
    const error = revision.validateInbound(callTool({ name: "x" }), { role: "client" });
    expect(error?.code).toBe(ErrorCode.MethodNotFound);
  });

  test("a result is checked against its request's result shape, naming the content block at fault", () => {
    const context = { role: "client", request: { method: "tools/call" } } as const;
    const good = { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "ok" }] } } as const;
    expect(revision.validateInbound(good, context)).toBeUndefined();
    const bad = {
      jsonrpc: "2.0",
      id: 1,
      result: {
        content: [
          { type: "text", text: "ok" },
          { type: "image", mimeType: "image/png" },
        ],
      },
    } as const;
    expect(revision.validateInbound(bad, context)?.message).toBe(
      "Invalid result for tools/call: result.content[1].data is required",
    );
  });

  test("an unknown content type lists what the revision allows", () => {
    const context = { role: "client", request: { method: "tools/call" } } as const;
    const message = { jsonrpc: "2.0", id: 1, result: { content: [{ type: "video", url: "x" }] } } as const;
    const error = revision.validateInbound(message, context);
    expect(error?.code).toBe(ErrorCode.InvalidParams);
    expect(error?.message).toMatch(
      /result\.content\[0\] must be one of TextContent, ImageContent, .*\(got type "video"\)/,
    );
  });

  test("a response without the request it answers is only framed, not shape-checked", () => {
    expect(revision.validateInbound({ jsonrpc: "2.0", id: 1, result: { anything: true } }, { role: "client" })).toBe(
      undefined,
    );
  });

  test("outbound: the server may not send a malformed notification", () => {
    const error = revision.validateOutbound(
      { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "t" } },
      { role: "server" },
    );
    expect(error?.message).toBe("Invalid params for notifications/progress: params.progress is required");
  });
});

describe("revision-specific shapes", () => {
  const elicit = (params: Record<string, unknown>): JsonRpcMessage => ({
    jsonrpc: "2.0",
    id: 7,
    method: "elicitation/create",
    params,
  });

  test("elicitation/create does not exist before 2025-06-18", () => {
    const message = elicit({ message: "Name?", requestedSchema: { type: "object", properties: {} } });
    expect(STATEFUL_REVISIONS["2025-03-26"].validateInbound(message, { role: "client" })?.code).toBe(
      ErrorCode.MethodNotFound,
    );
    expect(STATEFUL_REVISIONS["2025-06-18"].validateInbound(message, { role: "client" })).toBeUndefined();
  });

  test("URL mode is valid in 2025-11-25 and its elicitationId must be a string", () => {
    const url = { mode: "url", message: "Connect your account", url: "https://example.com/connect/1" };
    const revision = STATEFUL_REVISIONS["2025-11-25"];
    expect(revision.validateInbound(elicit({ ...url, elicitationId: "e-1" }), { role: "client" })).toBeUndefined();
    expect(revision.validateInbound(elicit({ ...url, elicitationId: 1 }), { role: "client" })?.message).toBe(
      "Invalid params for elicitation/create: params.elicitationId must be string",
    );
  });

  test("a nested object field in a requested schema is refused with the field's path", () => {
    const message = elicit({
      mode: "form",
      message: "Address?",
      requestedSchema: { type: "object", properties: { address: { type: "object" } } },
    });
    const error = STATEFUL_REVISIONS["2025-11-25"].validateInbound(message, { role: "client" });
    expect(error?.message).toMatch(
      /^Invalid params for elicitation\/create: params\.requestedSchema\.properties\.address must be one of StringSchema, /,
    );
  });

  test("a -32042 error must carry URL elicitations in 2025-11-25", () => {
    const revision = STATEFUL_REVISIONS["2025-11-25"];
    const elicitation = { mode: "url", message: "Sign in", url: "https://example.com/c", elicitationId: "e" };
    const good = {
      jsonrpc: "2.0",
      id: 3,
      error: { code: -32042, message: "Authorization needed", data: { elicitations: [elicitation] } },
    } as const;
    expect(revision.validateInbound(good, { role: "client" })).toBeUndefined();
    const bad = { ...good, error: { ...good.error, data: { elicitations: [{ mode: "url" }] } } };
    expect(revision.validateInbound(bad, { role: "client" })?.message).toContain(
      "error.data.elicitations[0].elicitationId is required",
    );
  });

  test("a task-augmented tools/call is answered with a CreateTaskResult in 2025-11-25", () => {
    const revision = STATEFUL_REVISIONS["2025-11-25"];
    const request = { method: "tools/call", params: { name: "slow", task: { ttl: 60_000 } } };
    const task = {
      taskId: "t1",
      status: "working",
      createdAt: "2025-11-25T00:00:00Z",
      lastUpdatedAt: "2025-11-25T00:00:00Z",
      ttl: 60_000,
    };
    expect(revision.validateInbound({ jsonrpc: "2.0", id: 1, result: { task } }, { role: "client", request })).toBe(
      undefined,
    );
    expect(
      revision.validateInbound({ jsonrpc: "2.0", id: 1, result: { content: [] } }, { role: "client", request }),
    ).toBeInstanceOf(ProtocolError);
  });
});

describe("validatorFor", () => {
  test("returns the same compiled validator on every call", () => {
    expect(validatorFor("2025-06-18", "Tool")).toBe(validatorFor("2025-06-18", "Tool"));
  });

  test("checks formats the schema names (uri)", () => {
    const validate = validatorFor("2025-11-25", "ElicitRequestURLParams");
    expect(validate({ mode: "url", message: "m", elicitationId: "e", url: "https://example.com/x" })).toBe(true);
    expect(validate({ mode: "url", message: "m", elicitationId: "e", url: "not a url" })).toBe(false);
  });

  test("an unknown definition is a local error", () => {
    expect(() => validatorFor("2024-11-05", "ElicitRequest")).toThrow(SdkError);
  });
});
