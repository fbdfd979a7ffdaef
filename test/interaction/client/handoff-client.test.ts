import { afterEach, describe, expect, it, vi } from "vitest";
import { McpClient } from "../../../src/client/index.js";
import {
  createConsentPolicy,
  DEFAULT_HANDOFF_TIMEOUT_MS,
  HandoffClient,
  HandoffError,
  type RefusedHandoff,
} from "../../../src/interaction/client/index.js";
import { SdkError } from "../../../src/jsonrpc/errors.js";
import { CONNECT_URL, flush, rig, SERVER_INFO } from "./support.js";

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("a hand-off asked for during a request (URL-mode elicitation/create)", () => {
  it("reaches the handler as a UrlInteraction; accept goes back and the completion marks it done", async () => {
    let signal: AbortSignal | undefined;
    const r = await rig(async (_interaction, ctx) => {
      signal = ctx.signal;
      return "accept";
    });
    const result = await r.handoff.callTool({ name: "ask" });
    expect(result.content).toEqual([{ type: "text", text: "accept" }]);
    expect(r.shown).toEqual([
      {
        kind: "elicitation",
        id: expect.any(String),
        server: SERVER_INFO,
        url: CONNECT_URL,
        origin: "https://mcp.example.com",
        host: "mcp.example.com",
        registrableDomain: "example.com",
        message: "Sign in.",
        warnings: [],
        source: "request",
      },
    ]);
    const id = r.shown[0]?.id;
    expect(r.statuses).toEqual([`${id}:pending`, `${id}:accepted`, `${id}:completed`]);
    expect(signal?.aborted).toBe(true);
  });

  it("marks it expired when no completion comes within timeoutMs, and aborts the handler's signal", async () => {
    let signal: AbortSignal | undefined;
    const r = await rig(
      async (_interaction, ctx) => {
        signal = ctx.signal;
        return "accept";
      },
      { completeAfterAccept: false, timeoutMs: 5_000 },
    );
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const result = await r.handoff.callTool({ name: "ask" });
    expect(result.content).toEqual([{ type: "text", text: "accept" }]);
    expect(signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(5_000);
    const id = r.shown[0]?.id;
    expect(r.statuses).toEqual([`${id}:pending`, `${id}:accepted`, `${id}:expired`]);
    expect(signal?.aborted).toBe(true);
  });

  it("sends decline or cancel back to the server and opens nothing", async () => {
    for (const answer of ["decline", "cancel"] as const) {
      const r = await rig(async () => answer);
      const result = await r.handoff.callTool({ name: "ask" });
      expect(result.content).toEqual([{ type: "text", text: answer }]);
      expect(r.answers).toEqual([answer]);
    }
  });
});

describe("callWithHandoff on a -32042 error", () => {
  it("asks, waits for the completion notification, then retries the call, which succeeds", async () => {
    const r = await rig(async () => {
      // The user finishes in the browser a moment later; the server then reports completion.
      setTimeout(() => {
        r.done.add("e-1");
        void r.session.notifyElicitationComplete("e-1");
      }, 0);
      return "accept";
    });
    const result = await r.handoff.callTool({ name: "files" });
    expect(result.content).toEqual([{ type: "text", text: "3 files" }]);
    expect(r.calls.files).toBe(2);
    expect(r.shown).toMatchObject([{ kind: "elicitation", id: "e-1", source: "error", url: CONNECT_URL }]);
    expect(r.statuses).toEqual(["e-1:pending", "e-1:accepted", "e-1:completed"]);
  });

  it("works the same for resources/read and prompts/get", async () => {
    const r = await rig(async () => {
      r.done.add("e-1");
      setTimeout(() => void r.session.notifyElicitationComplete("e-1"), 0);
      return "accept";
    });
    const read = await r.handoff.readResource({ uri: "docs://private" });
    expect(read.contents).toEqual([{ uri: "docs://private", text: "secret plans" }]);
    const prompt = await r.handoff.getPrompt({ name: "private" });
    expect(prompt.messages).toHaveLength(1);
    expect([r.calls.resource, r.calls.prompt]).toEqual([2, 1]);
  });

  it("retries when the user says they are done, without any notification", async () => {
    const r = await rig(async (interaction, ctx) => {
      r.done.add("e-1");
      setTimeout(() => ctx.userDone(), 0);
      expect(interaction.id).toBe("e-1");
      return "accept";
    });
    const result = await r.handoff.callTool({ name: "files" });
    expect(result.content).toEqual([{ type: "text", text: "3 files" }]);
    expect(r.statuses).toEqual(["e-1:pending", "e-1:accepted"]);
  });

  it("also takes the user's done through HandoffClient.userDone(id)", async () => {
    const r = await rig(async () => "accept");
    const call = r.handoff.callTool({ name: "files" });
    await flush();
    r.done.add("e-1");
    expect(r.handoff.userDone("e-1")).toBe(true);
    expect((await call).content).toEqual([{ type: "text", text: "3 files" }]);
    expect(r.handoff.userDone("e-1")).toBe(false);
  });

  it("gives up after the timeout (10 minutes by default) when nothing says the page is done", async () => {
    const r = await rig(async () => "accept");
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const call = r.handoff.callTool({ name: "files" }).catch((error: unknown) => error);
    await flush();
    await vi.advanceTimersByTimeAsync(DEFAULT_HANDOFF_TIMEOUT_MS - 1);
    expect(r.statuses).toEqual(["e-1:pending", "e-1:accepted"]);
    await vi.advanceTimersByTimeAsync(1);
    const error = await call;
    expect(error).toBeInstanceOf(HandoffError);
    expect(error).toBeInstanceOf(SdkError);
    expect(error).toMatchObject({ reason: "timeout", code: "REQUEST_TIMEOUT", interaction: { id: "e-1" } });
    expect(r.statuses).toEqual(["e-1:pending", "e-1:accepted", "e-1:expired"]);
    expect(r.calls.files).toBe(1);
  });

  it("stops without retrying when the user declines or cancels", async () => {
    for (const [answer, reason] of [
      ["decline", "declined"],
      ["cancel", "cancelled"],
    ] as const) {
      const r = await rig(async () => answer);
      const error = await r.handoff.callTool({ name: "files" }).catch((e: unknown) => e);
      expect(error).toMatchObject({ reason, code: "REQUEST_CANCELLED" });
      expect((error as Error).cause).toMatchObject({ code: -32042 });
      expect(r.calls.files).toBe(1);
    }
  });

  it("stops with a clear error when the server asks for the same URL again right after the retry", async () => {
    const r = await rig(async (_interaction, ctx) => {
      setTimeout(() => ctx.userDone(), 0);
      return "accept";
    });
    const error = await r.handoff.callTool({ name: "files" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HandoffError);
    expect(error).toMatchObject({ reason: "loop", code: "INVALID_RESULT" });
    expect((error as Error).message).toBe(
      "The server asked again for the same page on mcp.example.com right after it was done; not retrying again",
    );
    expect(r.calls.files).toBe(2);
    expect(r.shown).toHaveLength(1);
  });

  it("stops after maxRounds when every round asks for a new URL", async () => {
    const r = await rig(
      async (_interaction, ctx) => {
        setTimeout(() => ctx.userDone(), 0);
        return "accept";
      },
      { requiredUrl: (round) => `${CONNECT_URL}?round=${round}`, maxRounds: 2 },
    );
    const error = await r.handoff.callTool({ name: "files" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: "loop" });
    expect(r.calls.files).toBe(3);
  });

  it("rejects with the abort reason when the caller gives up while waiting", async () => {
    const r = await rig(async () => "accept");
    const abort = new AbortController();
    const call = r.handoff.callTool({ name: "files" }, { signal: abort.signal }).catch((e: unknown) => e);
    await flush();
    abort.abort(new Error("stop"));
    expect(await call).toEqual(new Error("stop"));
  });
});

describe("safety", () => {
  it("never shows a javascript:, data: or file: URL to the handler; it is declined unasked", async () => {
    for (const url of ["javascript:alert(1)", "data:text/html,hi", "file:///etc/passwd"]) {
      const handler = vi.fn(async () => "accept" as const);
      const r = await rig(handler, { requiredUrl: url });
      const refused: RefusedHandoff[] = [];
      r.handoff.onrefused = (refusal) => refused.push(refusal);
      const error = await r.handoff.callTool({ name: "files" }).catch((e: unknown) => e);
      expect(error).toMatchObject({ reason: "refused", code: "REQUEST_CANCELLED" });
      const asked = await r.handoff.callTool({ name: "ask" });
      expect(asked.content).toEqual([{ type: "text", text: "decline" }]);
      expect(handler).not.toHaveBeenCalled();
      expect(refused.map((x) => [x.url, x.source])).toEqual([
        [url, "error"],
        [url, "request"],
      ]);
    }
  });

  it("never fetches the URL, and opens the browser only after consent", async () => {
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    const events: string[] = [];
    const policy = createConsentPolicy({
      print: (text) => events.push(`print ${text.includes(CONNECT_URL) ? "url" : "text"}`),
      confirm: async (question) => {
        events.push(`confirm ${question}`);
        return true;
      },
      open: async (url) => {
        events.push(`open ${url}`);
        r.done.add("e-1");
        setTimeout(() => void r.session.notifyElicitationComplete("e-1"), 0);
      },
    });
    const r = await rig(policy, { serverUrl: "https://mcp.example.com/mcp" });
    const result = await r.handoff.callTool({ name: "files" });
    expect(result.content).toEqual([{ type: "text", text: "3 files" }]);
    expect(events).toEqual([
      "print url",
      "confirm Open the page on mcp.example.com in your browser?",
      `open ${CONNECT_URL}`,
      "print text",
    ]);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it("opens nothing when the user says no", async () => {
    const open = vi.fn(async () => {});
    const r = await rig(createConsentPolicy({ print: () => {}, confirm: async () => false, open }));
    await expect(r.handoff.callTool({ name: "files" })).rejects.toMatchObject({ reason: "declined" });
    expect(open).not.toHaveBeenCalled();
  });

  it("refuses a URL with user-info: the handler never sees it, and the call ends saying why", async () => {
    const url = "https://mcp.example.com@evil.example/login";
    const handler = vi.fn(async () => "accept" as const);
    const r = await rig(handler, { serverUrl: "https://mcp.example.com/mcp", requiredUrl: url });
    const refused: RefusedHandoff[] = [];
    r.handoff.onrefused = (refusal) => refused.push(refusal);
    const error = await r.handoff.callTool({ name: "files" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HandoffError);
    expect(error).toMatchObject({ reason: "refused", code: "REQUEST_CANCELLED" });
    expect((error as Error).message).toContain('user name or password before "@"');
    expect((error as Error).message).toContain("the site is evil.example");
    const asked = await r.handoff.callTool({ name: "ask" });
    expect(asked.content).toEqual([{ type: "text", text: "decline" }]);
    expect(handler).not.toHaveBeenCalled();
    expect(refused.map((x) => [x.url, x.source])).toEqual([
      [url, "error"],
      [url, "request"],
    ]);
  });

  it("shows the same URL without user-info, flagged as on another domain than the MCP server's", async () => {
    const r = await rig(async () => "decline", {
      serverUrl: "https://mcp.example.com/mcp",
      requiredUrl: "https://evil.example/login",
    });
    await r.handoff.callTool({ name: "files" }).catch(() => {});
    expect(r.shown[0]).toMatchObject({
      url: "https://evil.example/login",
      host: "evil.example",
      registrableDomain: "evil.example",
    });
    expect(r.shown[0]?.warnings.map((w) => w.code)).toEqual(["other-domain"]);
  });
});

describe("a consent policy that refuses other domains", () => {
  const refusing = (open: () => Promise<void>, printed: string[]) =>
    createConsentPolicy({
      otherDomain: "refuse",
      print: (text) => printed.push(text),
      confirm: async () => true,
      open,
    });

  it("declines a page on another domain than serverUrl's without asking or opening it", async () => {
    const open = vi.fn(async () => {});
    const printed: string[] = [];
    const r = await rig(refusing(open, printed), {
      serverUrl: "https://mcp.example.com/mcp",
      requiredUrl: "https://evil.example/login",
    });
    await expect(r.handoff.callTool({ name: "files" })).rejects.toMatchObject({ reason: "declined" });
    expect(open).not.toHaveBeenCalled();
    expect(printed.join("")).toContain("not on the server's own domain example.com");
  });

  it("opens a page on the server's own domain", async () => {
    const printed: string[] = [];
    const r = await rig(
      refusing(async () => {
        r.done.add("e-1");
        setTimeout(() => void r.session.notifyElicitationComplete("e-1"), 0);
      }, printed),
      { serverUrl: "https://mcp.example.com/mcp", requiredUrl: "https://auth.example.com/connect" },
    );
    const result = await r.handoff.callTool({ name: "files" });
    expect(result.content).toEqual([{ type: "text", text: "3 files" }]);
  });
});

describe("HandoffClient setup", () => {
  it("declares URL-mode elicitation and the user-interaction proposal; form mode with a form handler", async () => {
    const r = await rig(async () => "accept");
    expect(r.session.clientCapabilities).toEqual({ elicitation: { url: {} }, userInteraction: { types: ["ua"] } });
    const withForm = await rig(async () => "accept", { formHandler: () => ({ action: "decline" }) });
    expect(withForm.session.clientCapabilities).toMatchObject({ elicitation: { form: {}, url: {} } });
    const urlOnly = await rig(async () => "accept", { userInteraction: false });
    expect(urlOnly.session.clientCapabilities).toEqual({ elicitation: { url: {} } });
  });

  it("keeps an onElicitationComplete hook set before wrapping", async () => {
    const heard: string[] = [];
    const client = new McpClient({ name: "c", version: "1" });
    client.onElicitationComplete = (id) => heard.push(id);
    const handoff = new HandoffClient(client, { onInteraction: async () => "accept" });
    expect(handoff.client).toBe(client);
    expect(client.onElicitationComplete).not.toBeUndefined();
    client.onElicitationComplete?.("e-9");
    expect(heard).toEqual(["e-9"]);
  });

  it("refuses a client that is already connected", async () => {
    const r = await rig(async () => "accept");
    expect(() => new HandoffClient(r.client, { onInteraction: async () => "accept" })).toThrow(
      expect.objectContaining({ code: "ALREADY_CONNECTED" }),
    );
  });
});
