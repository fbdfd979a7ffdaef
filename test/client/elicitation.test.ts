import { describe, expect, it, vi } from "vitest";
import {
  type ElicitationHandler,
  type ElicitationParams,
  ErrorCode,
  type McpClient,
  ProtocolError,
  SdkError,
  UrlElicitationRequiredError,
} from "../../src/client/index.js";
import { connected, flush, until } from "./support.js";

const SCHEMA = {
  type: "object",
  properties: {
    name: { type: "string", minLength: 1 },
    email: { type: "string", format: "email" },
    newsletter: { type: "boolean", default: true },
    color: { type: "string", enum: ["red", "green"], default: "green" },
  },
  required: ["name", "email"],
};

const CONNECT_URL = "https://example.com/connect?elicitationId=e-1";

async function withHandler(handler: ElicitationHandler, modes: ("form" | "url")[] = ["form", "url"]) {
  const errors: Error[] = [];
  const setup = (client: McpClient) => {
    client.setElicitationHandler(handler, { modes });
    client.onerror = (error) => errors.push(error);
  };
  const { client, server } = await connected({}, setup);
  await until(() => server.sent("notifications/initialized").length === 1);
  return { client, server, errors };
}

describe("form-mode elicitation", () => {
  it("fills in schema defaults and sends the validated answer", async () => {
    let seen: ElicitationParams | undefined;
    const { server } = await withHandler((params) => {
      seen = params;
      return { action: "accept", content: { name: "Ada", email: "ada@example.com", newsletter: false } };
    });
    const result = await server.session.request("elicitation/create", {
      mode: "form",
      message: "Who are you?",
      requestedSchema: SCHEMA,
    });
    expect(seen).toMatchObject({ mode: "form", message: "Who are you?", requestedSchema: SCHEMA });
    expect(result).toEqual({
      action: "accept",
      content: { name: "Ada", email: "ada@example.com", newsletter: false, color: "green" },
    });
  });

  it("treats a request without mode as form mode", async () => {
    let seen: ElicitationParams | undefined;
    const { server } = await withHandler((params) => {
      seen = params;
      return { action: "accept", content: { name: "Ada", email: "ada@example.com" } };
    });
    await server.session.request("elicitation/create", { message: "Who?", requestedSchema: SCHEMA });
    expect(seen?.mode).toBe("form");
  });

  it("answers -32603 when the handler's answer breaks the schema, and reports it locally", async () => {
    const { server, errors } = await withHandler(() => ({
      action: "accept",
      content: { name: "Ada", email: "not an address" },
    }));
    const failure = await server.session
      .request("elicitation/create", { mode: "form", message: "Who?", requestedSchema: SCHEMA })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ProtocolError);
    expect(failure).toMatchObject({ code: ErrorCode.InternalError });
    expect((failure as Error).message).toContain("content.email");
    expect(errors).toEqual([expect.objectContaining({ code: "INVALID_RESULT" })]);
    expect(errors[0]).toBeInstanceOf(SdkError);
  });

  it("sends decline and cancel without content, unvalidated", async () => {
    const answers = ["decline", "cancel"] as const;
    let turn = 0;
    const { server } = await withHandler(() => ({
      action: answers[turn++] ?? "cancel",
      content: { name: "" },
    }));
    const request = () =>
      server.session.request("elicitation/create", { mode: "form", message: "Who?", requestedSchema: SCHEMA });
    await expect(request()).resolves.toEqual({ action: "decline" });
    await expect(request()).resolves.toEqual({ action: "cancel" });
  });

  it("answers -32602 for a requested schema form mode does not allow", async () => {
    const handler = vi.fn<ElicitationHandler>(() => ({ action: "cancel" }));
    const { server } = await withHandler(handler);
    const nested = { type: "object", properties: { address: { type: "object", properties: {} } } };
    await expect(
      server.session.request("elicitation/create", { mode: "form", message: "Where?", requestedSchema: nested }),
    ).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    expect(handler).not.toHaveBeenCalled();
  });

  it("gives the handler the server's identity and an abort signal", async () => {
    const { server } = await withHandler((_params, ctx) => {
      expect(ctx.serverInfo.name).toBe("fake-server");
      expect(ctx.signal.aborted).toBe(false);
      return { action: "cancel" };
    });
    await expect(
      server.session.request("elicitation/create", { message: "Who?", requestedSchema: SCHEMA }),
    ).resolves.toEqual({ action: "cancel" });
  });
});

describe("URL-mode elicitation", () => {
  it("answers -32602 for a mode the client did not declare, without calling the handler", async () => {
    const handler = vi.fn<ElicitationHandler>(() => ({ action: "accept" }));
    const { server } = await withHandler(handler, ["form"]);
    expect(server.sent("initialize")[0]?.params?.capabilities).toEqual({ elicitation: { form: {} } });
    await expect(
      server.session.request("elicitation/create", {
        mode: "url",
        message: "Connect your account",
        url: CONNECT_URL,
        elicitationId: "e-1",
      }),
    ).rejects.toMatchObject({ code: ErrorCode.InvalidParams, message: expect.stringContaining('mode "url"') });
    expect(handler).not.toHaveBeenCalled();
  });

  it("answers -32602 for form mode when only URL mode was declared", async () => {
    const { server } = await withHandler(() => ({ action: "cancel" }), ["url"]);
    await expect(
      server.session.request("elicitation/create", { mode: "form", message: "Who?", requestedSchema: SCHEMA }),
    ).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
  });

  it("sends accept without content and reports the completion once", async () => {
    let seen: ElicitationParams | undefined;
    const { client, server } = await withHandler((params) => {
      seen = params;
      return { action: "accept", content: { leaked: "no" } };
    });
    const completed: string[] = [];
    client.onElicitationComplete = (id) => completed.push(id);

    const result = await server.session.request("elicitation/create", {
      mode: "url",
      message: "Connect your account",
      url: CONNECT_URL,
      elicitationId: "e-1",
    });
    expect(seen).toEqual({ mode: "url", message: "Connect your account", url: CONNECT_URL, elicitationId: "e-1" });
    expect(result).toEqual({ action: "accept" });

    await server.session.notify("notifications/elicitation/complete", { elicitationId: "unknown" });
    await server.session.notify("notifications/elicitation/complete", { elicitationId: "e-1" });
    await server.session.notify("notifications/elicitation/complete", { elicitationId: "e-1" });
    await until(() => completed.length > 0);
    await flush();
    expect(completed).toEqual(["e-1"]);
  });

  it("does not await a URL elicitation the user declined", async () => {
    const { client, server } = await withHandler(() => ({ action: "decline" }));
    const completed: string[] = [];
    client.onElicitationComplete = (id) => completed.push(id);
    await server.session.request("elicitation/create", {
      mode: "url",
      message: "Connect",
      url: CONNECT_URL,
      elicitationId: "e-2",
    });
    await server.session.notify("notifications/elicitation/complete", { elicitationId: "e-2" });
    await flush();
    await flush();
    expect(completed).toEqual([]);
  });
});

describe("URL elicitation required (-32042)", () => {
  it("surfaces as a typed error and awaits the listed elicitations", async () => {
    const { client, server } = await withHandler(() => ({ action: "accept" }));
    const elicitations = [
      { mode: "url" as const, elicitationId: "e-9", url: CONNECT_URL, message: "Authorize access to your files" },
    ];
    server.session.setRequestHandler("tools/call", () => {
      throw new UrlElicitationRequiredError(elicitations);
    });
    const completed: string[] = [];
    client.onElicitationComplete = (id) => completed.push(id);

    const failure = await client.callTool({ name: "files" }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(UrlElicitationRequiredError);
    expect(failure).toBeInstanceOf(ProtocolError);
    expect((failure as UrlElicitationRequiredError).code).toBe(-32042);
    expect((failure as UrlElicitationRequiredError).elicitations).toEqual(elicitations);

    await server.session.notify("notifications/elicitation/complete", { elicitationId: "e-9" });
    await until(() => completed.length > 0);
    expect(completed).toEqual(["e-9"]);
  });
});
