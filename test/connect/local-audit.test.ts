/**
 * The audit records of the local connect pages: the hand-off created, its form opened by the
 * browser that claimed the link, the key stored and the hand-off completed, all for the local
 * user; neither the key nor the link's token is in any record.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalConnect, startLocalConnect } from "../../src/connect/index.js";
import { ProtocolError } from "../../src/jsonrpc/errors.js";
import { McpServer } from "../../src/server/index.js";
import { secretForms } from "../../src/server/secret-forms.js";
import { type AuditRecord, MemoryAuditLog } from "../../src/stores/index.js";
import { CAPS, connectPeer } from "../interaction/server/support.js";
import { recordingLogger } from "../support/recording-logger.js";

const USER = { issuer: "local", subject: "ada" };
const audit = new MemoryAuditLog();
let local: LocalConnect;
let server: McpServer;

beforeAll(async () => {
  local = await startLocalConnect({ user: USER, logger: recordingLogger(), audit });
  server = new McpServer({ name: "weather", version: "1.0.0" }, { interactions: local.interactions });
  server.registerTool("forecast", { inputSchema: {} }, async (_args, ctx) => {
    const key = await ctx.credentials.unsafeRevealSecret("weather", { kind: "secret", label: "Weather API key" });
    return { content: [{ type: "text", text: `key of length ${key.secret.length}` }] };
  });
});
afterAll(async () => {
  await local?.close();
});

describe("local connect: audit records", () => {
  it("records created, opened, stored and completed for the local user, and neither the key nor the token", async () => {
    const peer = await connectPeer(server, { capabilities: CAPS.urlElicitation });
    const error = await peer.client.request("tools/call", { name: "forecast", arguments: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    const link = ((error as ProtocolError).data as { elicitations: { url: string }[] }).elicitations[0]?.url ?? "";
    const token = new URL(link).searchParams.get("token") ?? "";
    expect(token).not.toBe("");

    const opened = await fetch(link, { redirect: "manual" });
    const cookie = (opened.headers.getSetCookie()[0] ?? "").split(";")[0] ?? "";
    const page = new URL(opened.headers.get("location") ?? "", link).href;
    const form = await (await fetch(page, { headers: { cookie } })).text();
    const save = form.split("<form").find((part) => part.includes('id="save"'));
    const csrf = /name="csrf" value="([^"]+)"/.exec(save ?? "")?.[1] ?? "";
    const key = "wx-live-0f9e8d7c6b5a";
    const saved = await fetch(page, {
      method: "POST",
      headers: { cookie, origin: local.origin, "sec-fetch-site": "same-origin" },
      body: new URLSearchParams({ csrf, secret: key }),
    });
    expect(await saved.text()).toContain("Done");

    const records = (await audit.forUser(USER)).reverse();
    expect(records.map((r: AuditRecord) => [r.event, r.outcome, r.provider, r.user])).toEqual([
      ["handoff.created", "ok", "weather", USER],
      ["handoff.opened", "ok", "weather", USER],
      ["grant.stored", "ok", "weather", USER],
      ["handoff.completed", "ok", "weather", USER],
    ]);
    let text = "";
    for await (const line of audit.exportJsonLines()) text += line;
    for (const secret of [key, token, cookie.split("=")[1] ?? ""]) {
      expect(secret.length).toBeGreaterThan(8);
      expect(secretForms(secret).some((f) => text.includes(f.literal))).toBe(false);
    }
  });
});
