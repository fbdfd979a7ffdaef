/**
 * One hand-off across three instances sharing their stores and bus reads as one trace: the
 * `tools/call` that starts it on A, the connect pages on B, the provider's callback with the vault
 * write and the completion on C, and the retry on C. No secret of the flow (the access and refresh
 * tokens, the bearer token, `requestState`, `code`, `state`, the cookie secret) is in any span.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CredentialBroker,
  createConnectHandler,
  MemoryGrantStateStore,
  withCredentials,
} from "../../src/connect/index.js";
import { InteractionManager } from "../../src/interaction/server/index.js";
import { JsonRpcSession, type Params } from "../../src/jsonrpc/session.js";
import { META } from "../../src/revisions/index.js";
import { McpServer } from "../../src/server/index.js";
import { InProcessMessageBus, MemoryCredentialVault, MemoryInteractionStore } from "../../src/stores/index.js";
import { STEP } from "../../src/tracing/index.js";
import { toNodeHandler } from "../../src/transports/http/index.js";
import { createMemoryTransportPair } from "../../src/transports/memory.js";
import { close, listen, startMcpAuthorizationServer, startThirdParty } from "../connect/authorization-servers.js";
import { Browser } from "../connect/browser.js";
import { AuthenticatedTransport } from "../interaction/server/support.js";
import { recorder, textOf } from "./support.js";

const spans = recorder();
const KEY = new Uint8Array(32).fill(3);
const COOKIE_SECRET = "a cookie secret of at least thirty-two bytes";
const CLIENT_SECRET = "repo-connector-secret-for-tests";
type Name = "A" | "B" | "C";

let rig: Awaited<ReturnType<typeof startRig>>;

async function startRig() {
  const web = await listen("127.0.0.1");
  const baseUrl = web.origin;
  const mcpAs = await startMcpAuthorizationServer(baseUrl);
  const thirdParty = await startThirdParty(baseUrl, "github");
  const store = new MemoryInteractionStore();
  const bus = new InProcessMessageBus();
  const vault = new MemoryCredentialVault({ encryption: { keys: { k1: randomBytes(32) }, currentKeyId: "k1" } });
  const states = new MemoryGrantStateStore();
  const providers = { github: { issuer: thirdParty.issuer, clientId: "repo-connector", clientSecret: CLIENT_SECRET } };
  const silent = { error() {}, warn() {}, info() {}, debug() {} };
  const make = (name: Name) => {
    const tracing = { tracer: spans.tracerNamed(name) };
    const manager = new InteractionManager({ store, bus, sweepIntervalMs: 0, tracing });
    const broker = new CredentialBroker({ service: manager, vault, baseUrl, providers, tracing });
    const server = new McpServer(
      { name: "fleet", version: "1.0.0" },
      { interactions: withCredentials(manager, broker), requestStateKeys: [KEY], handoffHoldMs: 0, tracing },
    );
    server.registerTool("repos", { description: "Lists the user's repositories" }, async (_args, ctx) => {
      const credential = await ctx.credentials.unsafeRevealSecret("github", { scopes: ["repo"] });
      const response = await fetch(`${thirdParty.issuer}/api/items`, {
        headers: { authorization: `Bearer ${credential.secret}` },
      });
      return { content: [{ type: "text", text: JSON.stringify(await response.json()) }] };
    });
    const pages = createConnectHandler({
      manager,
      vault,
      baseUrl,
      login: {
        issuer: mcpAs.issuer,
        clientId: "mcp-connect",
        clientSecret: "mcp-connect-secret-for-tests",
        redirectPath: "/connect/login",
      },
      providers,
      cookieSecret: COOKIE_SECRET,
      states,
      logger: silent,
      tracing,
    });
    return { server, manager, pages: toNodeHandler(pages, { logger: silent }) };
  };
  const instances = { A: make("A"), B: make("B"), C: make("C") };
  // The pages on B, the providers' answers on C.
  web.handle((req, res) => {
    const to = req.url?.startsWith("/connect/callback/") ? instances.C : instances.B;
    void to.pages(req, res);
  });
  return {
    instances,
    mcpIssuer: mcpAs.issuer,
    vault,
    async close() {
      for (const instance of Object.values(instances)) {
        await instance.server.close();
        await instance.manager.close();
      }
      await Promise.all([close(web.server), mcpAs.close(), thirdParty.close()]);
    },
  };
}

/** A bare 2026-07-28 client of alice's on one instance: each call carries its `_meta`, plus `extraMeta`. */
async function clientOf(name: Name) {
  const [clientEnd, serverEnd] = createMemoryTransportPair();
  const authInfo = { token: "token-of-alice-bearer", issuer: rig.mcpIssuer, subject: "alice" };
  await rig.instances[name].server.connect(new AuthenticatedTransport(serverEnd, authInfo));
  const client = new JsonRpcSession();
  await client.connect(clientEnd);
  const meta = {
    [META.protocolVersion]: "2026-07-28",
    [META.clientCapabilities]: { elicitation: { url: {} } },
    [META.clientInfo]: { name: "agent", version: "1" },
  };
  return (extraMeta: Params, retry: Params = {}) =>
    client.request("tools/call", { name: "repos", arguments: {}, ...retry, _meta: { ...meta, ...extraMeta } });
}

function pageOf(result: Params): string {
  const requests = Object.values((result.inputRequests ?? {}) as Record<string, { params?: { url?: string } }>);
  return requests[0]?.params?.url ?? "";
}

function retryOf(result: Params): Params {
  const keys = Object.keys((result.inputRequests as Params | undefined) ?? {});
  return {
    inputResponses: Object.fromEntries(keys.map((key) => [key, { action: "accept" }])),
    requestState: result.requestState,
  };
}

beforeAll(async () => {
  rig = await startRig();
});
afterAll(async () => {
  await rig?.close();
});

describe("a hand-off across three instances", () => {
  it("reads as one trace with a span for each step, on the instance that ran it", async () => {
    spans.reset();
    const task = spans.tracer.startSpan("caller task");
    const { traceId, spanId } = task.spanContext();
    const traceparent = `00-${traceId}-${spanId}-01`;

    const first = (await (await clientOf("A"))({ traceparent })) as Params;
    expect(first.resultType).toBe("input_required");
    const page = pageOf(first);
    const browser = new Browser();
    const done = await browser.goSigningIn(page, "alice");
    expect(done.text).toContain("Done");
    const retried = (await (await clientOf("C"))({ traceparent }, retryOf(first))) as Params;
    expect(JSON.stringify(retried.content)).toContain("alice-repo-1");
    task.end();

    const all = spans.spans();
    const steps = [STEP.created, STEP.pageOpened, STEP.callback, STEP.vaultWrite, STEP.completed, STEP.retry];
    for (const step of steps) expect(spans.named(step).length, step).toBeGreaterThan(0);
    expect(new Set(all.map((span) => span.spanContext().traceId))).toEqual(new Set([traceId]));
    const where = (name: string) => new Set(spans.named(name).map((span) => span.instrumentationScope.name));
    expect(where(STEP.created)).toEqual(new Set(["A"]));
    expect(where(STEP.pageOpened)).toEqual(new Set(["B"]));
    expect(where(STEP.callback)).toEqual(new Set(["C"]));
    expect(where(STEP.vaultWrite)).toEqual(new Set(["C"]));
    expect(where(STEP.completed)).toEqual(new Set(["C"]));
    expect(where(STEP.retry)).toEqual(new Set(["C"]));
    expect(spans.named("tools/call repos").map((span) => span.instrumentationScope.name)).toEqual(["A", "C"]);
    // Store and bus calls made inside the steps are there too.
    expect(spans.named("interaction_store.create")).toHaveLength(1);
    expect(spans.named("credential_vault.put")).toHaveLength(1);
    expect(spans.named("message_bus.publish").length).toBeGreaterThan(0);

    // Nothing secret in any span: tokens, requestState, the callback's code and state, secrets of the setup.
    const stored = await rig.vault.get({ issuer: rig.mcpIssuer, subject: "alice" }, "github");
    const callback = new URL(browser.hops.find((hop) => hop.url.includes("/connect/callback/"))?.url ?? "");
    const secrets = [
      stored?.secret,
      stored?.refreshToken,
      String(first.requestState),
      callback.searchParams.get("code"),
      callback.searchParams.get("state"),
      "token-of-alice-bearer",
      COOKIE_SECRET,
      CLIENT_SECRET,
      page,
    ];
    for (const secret of secrets) expect(secret?.length ?? 0, "a secret to look for").toBeGreaterThan(7);
    const text = all.map(textOf).join("\n");
    for (const secret of secrets) expect(text).not.toContain(secret);
    // The search reads what spans say: the tool, the provider and the outcome are there.
    expect(text).toContain('"gen_ai.tool.name":"repos"');
    expect(text).toContain('"mcp_handoff.provider":"github"');
    expect(text).toContain('"mcp_handoff.interaction.status":"completed"');
  });

  it("links the retry to the hand-off's trace when the client sends no trace context", async () => {
    const alice = { issuer: rig.mcpIssuer, subject: "alice" };
    await rig.vault.delete(alice, "github");
    spans.reset();
    const task = spans.tracer.startSpan("caller task");
    const { traceId, spanId } = task.spanContext();
    const first = (await (await clientOf("A"))({ traceparent: `00-${traceId}-${spanId}-01` })) as Params;
    task.end();
    const id = new URL(pageOf(first)).pathname.split("/").pop() ?? "";
    await rig.instances.B.manager.complete(id, {
      user: alice,
      commit: () =>
        rig.vault.put(alice, { provider: "github", secret: "gho_a-token-for-the-retry", updatedAt: Date.now() }),
    });
    const retried = (await (await clientOf("C"))({}, retryOf(first))) as Params;
    // The handler ran again (the third party refuses the made-up token, which is the tool's own error).
    expect(retried.resultType).not.toBe("input_required");
    const [retry] = spans.named(STEP.retry);
    expect(retry?.spanContext().traceId).not.toBe(traceId);
    expect(retry?.links.map((link) => link.context.traceId)).toEqual([traceId]);
    // The completion, made without a page, still joins the hand-off's trace.
    expect(spans.named(STEP.completed).map((span) => span.spanContext().traceId)).toEqual([traceId]);
  });
});
