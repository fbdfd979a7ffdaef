/**
 * A credential a handler obtained through `ctx.credentials.require` never leaves the server in
 * that request's results, error texts, logger entries or log notifications, even when the handler
 * (or a library it calls) quotes it, as it is or encoded: each such value becomes "[redacted]".
 */
import { describe, expect, it } from "vitest";
import { McpClient, ProtocolError } from "../../src/client/index.js";
import type { LoggingMessageParams } from "../../src/client/types.js";
import { CredentialBroker, withCredentials } from "../../src/connect/index.js";
import { InteractionManager } from "../../src/interaction/server/index.js";
import { InteractionRequired, McpServer } from "../../src/server/index.js";
import { REDACTED as REDACTION, SecretRedactor } from "../../src/server/redaction.js";
import {
  INSECURE_PLAINTEXT_VAULT_FOR_TESTS,
  InProcessMessageBus,
  MemoryCredentialVault,
  MemoryInteractionStore,
} from "../../src/stores/index.js";
import { createMemoryTransportPair } from "../../src/transports/memory.js";
import { recordingLogger } from "../support/recording-logger.js";

const USER = { issuer: "https://login.example", subject: "ada" };
const API_KEY = "fc-live-8Qe3vN1xLr7tYp0w";
const ACCESS_TOKEN = "gho_access_2f9Ck1mZq7Rb";
const REFRESH_TOKEN = "ghr_refresh_Vb6s0TqX4n";
/** Characters that every encoding below spells differently: space, slash, plus, equals, tilde, bang. */
const ODD_KEY = "sk live/4f9Qe+3vN1=xLr7~tYp!";

const base64 = (text: string) => Buffer.from(text).toString("base64");
const base64url = (text: string) => Buffer.from(text).toString("base64url");
const formEncoded = (text: string) => new URLSearchParams({ v: text }).toString().slice(2);

/** Every way a tool might quote a key: in headers, query strings, form bodies, basic auth and tokens. */
function quotedForms(secret: string): string[] {
  return [
    `Authorization: Bearer ${secret}`,
    `GET /v1/forecast?token=${encodeURIComponent(secret)}&city=Oslo`,
    `POST body: city=Oslo&token=${formEncoded(secret)}`,
    `lower-case escapes: ${encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase())}`,
    `key as base64: ${base64(secret)}`,
    `key as base64url: ${base64url(secret)}`,
    `Authorization: Basic ${base64(`ada:${secret}`)}`,
    `a token around it: ${base64url(JSON.stringify({ sub: "ada", key: secret }))}`,
    `prefixed by one byte: ${base64(`x${secret}`)}.`,
    `JSON inside text: ${JSON.stringify({ key: secret })}`,
  ];
}

/** Whether `text` still gives `secret` away: as it is, URL-decoded, or base64-decoded at any offset. */
function leaks(text: string, secret: string): boolean {
  if (text.includes(secret)) return true;
  const decoded = (() => {
    try {
      return decodeURIComponent(text.replaceAll("+", " "));
    } catch {
      return "";
    }
  })();
  if (decoded.includes(secret)) return true;
  for (const run of text.match(/[A-Za-z0-9+/_-]{8,}/g) ?? []) {
    for (let offset = 0; offset < 4; offset++) {
      const part = run.slice(offset).replaceAll("-", "+").replaceAll("_", "/");
      const bytes = Buffer.from(part, "base64");
      if (bytes.toString("latin1").includes(secret) || bytes.toString("utf8").includes(secret)) return true;
    }
  }
  return false;
}

async function start(options: { pinned?: string } = {}) {
  const vault = new MemoryCredentialVault({ encryption: INSECURE_PLAINTEXT_VAULT_FOR_TESTS });
  await vault.put(USER, { provider: "forecast", secret: API_KEY, updatedAt: 0 });
  await vault.put(USER, {
    provider: "github",
    secret: ACCESS_TOKEN,
    refreshToken: REFRESH_TOKEN,
    expiresAt: Date.now() + 3_600_000,
    updatedAt: 0,
  });
  await vault.put(USER, { provider: "short", secret: "abc123", updatedAt: 0 });
  await vault.put(USER, { provider: "odd", secret: ODD_KEY, updatedAt: 0 });
  const manager = new InteractionManager({
    store: new MemoryInteractionStore(),
    bus: new InProcessMessageBus(),
    unsafeLocalUser: USER,
  });
  const broker = new CredentialBroker({
    service: manager,
    vault,
    baseUrl: "https://mcp.example",
    providers: { github: { issuer: "https://github.example", clientId: "c", clientSecret: "client-secret-x" } },
  });
  const logger = recordingLogger();
  const logged = logger.entries;
  const server = new McpServer(
    { name: "forecasts", version: "1.0.0" },
    { interactions: withCredentials(manager, broker), logger },
  );
  server.registerTool("forecast", {}, async (_args, ctx) => {
    const credential = await ctx.credentials.unsafeRevealSecret("forecast");
    throw new Error(`upstream refused key ${credential.secret}`);
  });
  server.registerTool("repos", {}, async (_args, ctx) => {
    const { secret, refreshToken } = await ctx.credentials.unsafeRevealSecret("github");
    await ctx.log("warning", { note: `token ${secret} was rejected`, refresh: [refreshToken] });
    await ctx.notify("notifications/message", { level: "error", data: `raw ${secret}` });
    throw new ProtocolError(-32000, `github said no to ${secret}`, { refreshToken });
  });
  server.registerTool("progress", {}, async (_args, ctx) => {
    const credential = await ctx.credentials.unsafeRevealSecret("forecast");
    await ctx.progress(1, 2, `calling with ${credential.secret}`);
    return { content: [{ type: "text", text: "done" }] };
  });
  server.registerTool("returns-error", {}, async (_args, ctx) => {
    const credential = await ctx.credentials.unsafeRevealSecret("forecast");
    return { content: [{ type: "text", text: `bad key ${credential.secret}` }], isError: true };
  });
  server.registerTool("short", {}, async (_args, ctx) => {
    const credential = await ctx.credentials.unsafeRevealSecret("short");
    throw new Error(`code abc123 refused for ${credential.provider}`);
  });
  server.registerTool("plain", {}, () => {
    throw new Error(`upstream refused key ${API_KEY}`);
  });
  server.registerTool("echo-forms", {}, async (_args, ctx) => {
    const { secret } = await ctx.credentials.unsafeRevealSecret("odd");
    return {
      content: [
        ...quotedForms(secret).map((text) => ({ type: "text" as const, text })),
        { type: "resource", resource: { uri: "memo://key", text: `key=${secret}` } },
      ],
      structuredContent: { header: `Bearer ${secret}`, nested: [{ basic: base64(`ada:${secret}`) }] },
    };
  });
  server.registerTool("echo-keys", {}, async (_args, ctx) => {
    const { secret } = await ctx.credentials.unsafeRevealSecret("odd");
    return {
      content: [{ type: "text", text: "listed" }],
      structuredContent: { tokens: { [secret]: { scope: "read" } } },
      _meta: { [`seen/${secret}`]: true },
    };
  });
  server.registerTool("echo-objects", {}, async (_args, ctx) => {
    const { secret } = await ctx.credentials.unsafeRevealSecret("odd");
    return { content: [{ type: "text", text: "fetched" }], structuredContent: { item: new ApiItem(secret, 3) } };
  });
  server.registerTool("hands-off", {}, async (_args, ctx) => {
    const { secret } = await ctx.credentials.unsafeRevealSecret("forecast");
    const outcome = await ctx.interact({
      url: `https://mcp.example/connect/{interactionId}?old=${secret}`,
      message: `The key ${secret} has expired; enter a new one.`,
    });
    return { content: [{ type: "text", text: outcome.action }] };
  });
  let thrownOnce = false;
  server.registerTool("throws-hand-off", {}, async (_args, ctx) => {
    const { secret } = await ctx.credentials.unsafeRevealSecret("forecast");
    if (thrownOnce) return { content: [{ type: "text", text: "later" }] };
    thrownOnce = true;
    throw new InteractionRequired({
      url: `https://mcp.example/renew?old=${encodeURIComponent(secret)}`,
      message: `The key ${secret} has expired.`,
    });
  });
  server.registerTool("no-secret", {}, async (_args, ctx) => {
    await ctx.credentials.unsafeRevealSecret("odd");
    return UNRELATED;
  });
  server.registerTool("asks", {}, async (_args, ctx) => {
    const { secret } = await ctx.credentials.unsafeRevealSecret("odd");
    const answer = await ctx.elicit(
      {
        message: `Is ${base64(secret)} yours?`,
        requestedSchema: { type: "object", properties: { yes: { type: "boolean", title: `Key ${secret}` } } },
      },
      { inputKey: "confirm" },
    );
    return { content: [{ type: "text", text: answer.action }] };
  });
  server.registerTool("short-success", {}, async (_args, ctx) => {
    await ctx.credentials.unsafeRevealSecret("short");
    return { content: [{ type: "text", text: "code abc123, base64 YWJjMTIz, encoded abc123" }] };
  });
  server.registerResource("memo", "memo://today", {}, async (uri, _variables, ctx) => {
    const { secret } = await ctx.credentials.unsafeRevealSecret("odd");
    return {
      contents: [
        { uri, text: `fetched with token=${encodeURIComponent(secret)}` },
        { uri, blob: base64(`binary ${secret} data`) },
      ],
    };
  });
  server.registerPrompt("memo", {}, async (_args, ctx) => {
    const { secret } = await ctx.credentials.unsafeRevealSecret("odd");
    return { messages: [{ role: "user", content: { type: "text", text: `Use the key ${base64url(secret)}` } }] };
  });
  server.registerPrompt("briefing", {}, async (_args, ctx) => {
    const credential = await ctx.credentials.unsafeRevealSecret("forecast");
    throw new TypeError(`cannot parse answer for key=${credential.secret}`);
  });
  const [clientSide, serverSide] = createMemoryTransportPair();
  await server.connect(serverSide);
  const client = new McpClient({ name: "c", version: "1" }, options.pinned ? { protocolVersion: options.pinned } : {});
  const asked: unknown[] = [];
  client.setElicitationHandler(
    (params) => {
      asked.push(params);
      return { action: "decline" };
    },
    { modes: ["form", "url"] },
  );
  const messages: LoggingMessageParams[] = [];
  client.onLoggingMessage = (params) => messages.push(params);
  await client.connect(clientSide);
  return { server, client, logged, messages, asked };
}

const text = (result: { content: unknown[] }) => JSON.stringify(result.content);

function remembering(...secrets: string[]): SecretRedactor {
  const redactor = new SecretRedactor();
  for (const secret of secrets) redactor.remember({ provider: "p", secret, updatedAt: 0 });
  return redactor;
}

/** What an SDK hands back: a class instance, whose own fields JSON sends as a plain object's. */
class ApiItem {
  constructor(
    readonly token: string,
    readonly count: number,
  ) {}
}

/** A result quoting no credential: common words, numbers and base64 of other data, in every field. */
const UNRELATED = {
  content: [
    { type: "text" as const, text: "The password field is live; tokens rotate at 12:00. key=value&city=Oslo" },
    {
      type: "image" as const,
      data: base64("a picture that is not a key, repeated ".repeat(40)),
      mimeType: "image/png",
    },
  ],
  structuredContent: { note: "Bearer of good news", list: ["sk", "live", "4f9Qe"] },
};

for (const pinned of [undefined, "2025-11-25"]) {
  describe(`credentials in what a request sends (${pinned ?? "negotiated revision"})`, () => {
    it("a tool's thrown error reaches the client with the API key replaced", async () => {
      const { server, client } = await start({ pinned });
      const result = await client.callTool({ name: "forecast" });
      expect(result.isError).toBe(true);
      expect(result.content).toEqual([{ type: "text", text: "upstream refused key [redacted]" }]);
      await client.close();
      await server.close();
    });

    it("an error result the tool returns itself is redacted too", async () => {
      const { server, client } = await start({ pinned });
      const result = await client.callTool({ name: "returns-error" });
      expect(result.content).toEqual([{ type: "text", text: "bad key [redacted]" }]);
      await client.close();
      await server.close();
    });

    it("a ProtocolError and a log notification carry neither the access token nor the refresh token", async () => {
      const { server, client, messages } = await start({ pinned });
      await client.setLoggingLevel({ level: "debug" });
      const failure = await client.callTool({ name: "repos" }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ProtocolError);
      expect(failure).toMatchObject({
        code: -32000,
        message: "github said no to [redacted]",
        data: { refreshToken: "[redacted]" },
      });
      expect(messages).toEqual([
        expect.objectContaining({
          level: "warning",
          data: { note: "token [redacted] was rejected", refresh: ["[redacted]"] },
        }),
        expect.objectContaining({ level: "error", data: "raw [redacted]" }),
      ]);
      await client.close();
      await server.close();
    });

    it("a progress message is redacted", async () => {
      const { server, client } = await start({ pinned });
      const messages: (string | undefined)[] = [];
      await client.callTool({ name: "progress" }, { onprogress: (update) => messages.push(update.message) });
      expect(messages).toEqual(["calling with [redacted]"]);
      await client.close();
      await server.close();
    });

    it("what the server's logger gets about a failed request is redacted", async () => {
      const { server, client, logged } = await start({ pinned });
      await expect(client.getPrompt({ name: "briefing" })).rejects.toMatchObject({ code: -32603 });
      expect(logged).toHaveLength(1);
      const error = logged[0]?.error as Error;
      expect(error).toBeInstanceOf(TypeError);
      expect(error.message).toBe("cannot parse answer for key=[redacted]");
      expect(String(error.stack)).not.toContain(API_KEY);
      await client.close();
      await server.close();
    });

    it("a successful tool result gives the key away in no form: text, structured content, embedded resources", async () => {
      const { server, client } = await start({ pinned });
      const result = await client.callTool({ name: "echo-forms" });
      expect(result.isError).toBeFalsy();
      const sent = JSON.stringify(result);
      expect(leaks(sent, ODD_KEY)).toBe(false);
      for (const block of result.content) {
        if (block.type === "text") expect(leaks(block.text, ODD_KEY)).toBe(false);
      }
      // What is not the key stays readable.
      expect(result.content[0]).toEqual({ type: "text", text: "Authorization: Bearer [redacted]" });
      expect(result.content[1]).toEqual({ type: "text", text: "GET /v1/forecast?token=[redacted]&city=Oslo" });
      expect(result.structuredContent).toMatchObject({ header: "Bearer [redacted]" });
      await client.close();
      await server.close();
    });

    it("a key used as a property name, in structured content or _meta, is redacted too", async () => {
      const { server, client } = await start({ pinned });
      const result = await client.callTool({ name: "echo-keys" });
      expect(leaks(JSON.stringify(result), ODD_KEY)).toBe(false);
      expect(result.structuredContent).toEqual({ tokens: { [REDACTION]: { scope: "read" } } });
      expect(result._meta).toMatchObject({ [`seen/${REDACTION}`]: true });
      await client.close();
      await server.close();
    });

    it("a class instance in the result that holds the key is sent redacted, as the plain object JSON makes of it", async () => {
      const { server, client } = await start({ pinned });
      const result = await client.callTool({ name: "echo-objects" });
      expect(leaks(JSON.stringify(result), ODD_KEY)).toBe(false);
      expect(result.structuredContent).toEqual({ item: { token: REDACTION, count: 3 } });
      await client.close();
      await server.close();
    });

    it("resource contents and prompt messages are redacted too", async () => {
      const { server, client } = await start({ pinned });
      const read = await client.readResource({ uri: "memo://today" });
      expect(read.contents[0]).toMatchObject({ text: "fetched with token=[redacted]" });
      const blob = (read.contents[1] as { blob: string }).blob;
      expect(leaks(Buffer.from(blob, "base64").toString("latin1"), ODD_KEY)).toBe(false);
      // Still base64, which the schema requires of a blob: the key's bytes are zeroed, not cut out.
      expect(Buffer.from(blob, "base64").toString("base64")).toBe(blob);
      expect(Buffer.from(blob, "base64").toString("latin1")).toMatch(/^binary \0+ data$/);
      expect(leaks(JSON.stringify(read), ODD_KEY)).toBe(false);
      const prompt = await client.getPrompt({ name: "memo" });
      expect(prompt.messages[0]?.content).toEqual({ type: "text", text: "Use the key [redacted]" });
      await client.close();
      await server.close();
    });

    it("what the tool asks the user through the client quotes no key either", async () => {
      const { server, client, asked } = await start({ pinned });
      const result = await client.callTool({ name: "asks" });
      expect(result.content).toEqual([{ type: "text", text: "decline" }]);
      expect(asked).toEqual([
        expect.objectContaining({
          message: "Is [redacted] yours?",
          requestedSchema: expect.objectContaining({
            properties: { yes: { type: "boolean", title: "Key [redacted]" } },
          }),
        }),
      ]);
      await client.close();
      await server.close();
    });

    it("a hand-off quoting the key, asked through ctx.interact or thrown, reaches the client with it redacted in message and URL", async () => {
      const { server, client, asked } = await start({ pinned });
      expect(await client.callTool({ name: "hands-off" })).toMatchObject({ content: [{ text: "decline" }] });
      const thrown = await client.callTool({ name: "throws-hand-off" }).catch((error: unknown) => error);
      expect(leaks(JSON.stringify({ asked, thrown, data: (thrown as { data?: unknown })?.data }), API_KEY)).toBe(false);
      // Over 2026-07-28 a thrown hand-off comes as an InputRequiredResult, asked again on each retry.
      const shown = [...asked, ...((thrown as { data?: { elicitations?: unknown[] } })?.data?.elicitations ?? [])];
      const asInteract = expect.objectContaining({
        mode: "url",
        message: "The key [redacted] has expired; enter a new one.",
        url: expect.stringMatching(/^https:\/\/mcp\.example\/connect\/[\w-]+\?old=%5Bredacted%5D$/),
      });
      const asThrown = expect.objectContaining({
        mode: "url",
        message: "The key [redacted] has expired.",
        url: "https://mcp.example/renew?old=%5Bredacted%5D",
      });
      expect(shown[0]).toEqual(asInteract);
      expect(shown.length).toBeGreaterThan(1);
      for (const handoff of shown.slice(1)) expect(handoff).toEqual(asThrown);
      await client.close();
      await server.close();
    });

    it("a result that quotes no credential arrives exactly as the tool returned it", async () => {
      const { server, client } = await start({ pinned });
      const result = await client.callTool({ name: "no-secret" });
      expect({ content: result.content, structuredContent: result.structuredContent }).toEqual(UNRELATED);
      // A key shorter than the minimum is never looked for, in any form.
      const short = await client.callTool({ name: "short-success" });
      expect(short.content).toEqual([{ type: "text", text: "code abc123, base64 YWJjMTIz, encoded abc123" }]);
      await client.close();
      await server.close();
    });

    it("leaves short values and values no credential of the request holds alone", async () => {
      const { server, client } = await start({ pinned });
      expect(text(await client.callTool({ name: "short" }))).toContain("code abc123 refused for short");
      // Redaction knows only what this request was handed; the tool quoting a constant is its own affair.
      expect(text(await client.callTool({ name: "plain" }))).toContain(API_KEY);
      await client.close();
      await server.close();
    });
  });
}

describe("SecretRedactor", () => {
  it("finds a key inside base64 at every byte offset, and takes every bit of it", () => {
    for (const secret of ["12345678", "sk-9aZ/+=~ key", "ключ-доступа-42"]) {
      const redactor = remembering(secret);
      for (const before of ["", "a", "ab", "abc", "user:"]) {
        for (const after of ["", "!", "!?", "!?#"]) {
          for (const encoding of ["base64", "base64url"] as const) {
            const encoded = Buffer.from(`${before}${secret}${after}`).toString(encoding);
            const redacted = redactor.text(`value ${encoded} end`);
            expect(redacted, `${encoding} of ${before}|${secret}|${after}`).toContain(REDACTION);
            expect(leaks(redacted, secret)).toBe(false);
          }
        }
      }
    }
  });

  it("takes a key out of JSON text where it is escaped, and out of a lower-case percent-encoding", () => {
    const secret = 'pa"ss\\word-42';
    const redactor = remembering(secret);
    expect(redactor.text(JSON.stringify({ key: secret }))).toBe(`{"key":"${REDACTION}"}`);
    expect(redactor.text(`k=${encodeURIComponent(secret).toLowerCase()}`)).toBe(`k=${REDACTION}`);
  });

  it("redacts property names, and keeps two names that both held the key apart", () => {
    const secret = "tok_live_12345678";
    const redacted = remembering(secret).value({ [secret]: 1, [`${secret}!`]: 2, plain: { [`a ${secret}`]: 3 } });
    expect(redacted).toEqual({ [REDACTION]: 1, [`${REDACTION}!`]: 2, plain: { [`a ${REDACTION}`]: 3 } });
    const twice = remembering(secret).value({ [secret]: 1, [base64url(secret)]: 2 });
    expect(Object.values(twice).sort()).toEqual([1, 2]);
    expect(JSON.stringify(twice)).not.toContain(secret);
    // Positive control: names that hold no key stay, in their order.
    const unrelated = { b: 1, a: { c: 2 } };
    expect(remembering(secret).value(unrelated)).toBe(unrelated);
  });

  it("redacts what JSON would send of objects that are not plain: toJSON (a URL, a Date) and class instances", () => {
    const secret = "tok_live/12345678";
    const redactor = remembering(secret);
    const sent = (value: unknown) => JSON.stringify(redactor.value(value));
    const link = new URL(`https://api.example/items?token=${encodeURIComponent(secret)}`);
    expect(sent({ link })).toBe(`{"link":"https://api.example/items?token=${REDACTION}"}`);
    expect(sent({ custom: { toJSON: () => ({ auth: `Bearer ${secret}` }) } })).toBe(
      `{"custom":{"auth":"Bearer ${REDACTION}"}}`,
    );
    expect(sent([new ApiItem(secret, 1)])).toBe(`[{"token":"${REDACTION}","count":1}]`);
    // Positive control: such objects that hold no key are left as they are, class and all.
    const when = new Date(0);
    const item = new ApiItem("not-the-key", 2);
    const plain = redactor.value({ when, item, link: new URL("https://api.example/") });
    expect(plain.when).toBe(when);
    expect(plain.item).toBe(item);
    expect(plain.link).toBeInstanceOf(URL);
  });

  it("takes a key out of the JSON other encoders write: slashes escaped, non-ASCII or HTML characters as \\u escapes", () => {
    const secret = "sk/live+ключ<42>&'";
    const redactor = remembering(secret);
    /** `secret` in a JSON string whose writer spells `chars` as \u escapes. */
    const written = (chars: RegExp, options: { upper?: boolean; slash?: boolean } = {}) =>
      [...secret]
        .map((c) => {
          if (!chars.test(c)) return c === "/" && options.slash ? "\\/" : JSON.stringify(c).slice(1, -1);
          const hex = c.charCodeAt(0).toString(16).padStart(4, "0");
          return `\\u${options.upper ? hex.toUpperCase() : hex}`;
        })
        .join("");
    const spellings = {
      php: written(/[\u0080-\u{10ffff}]/u, { slash: true }),
      phpUnicode: written(/$^/, { slash: true }),
      python: written(/[\u0080-\u{10ffff}]/u),
      go: written(/[<>&\u2028\u2029]/),
      dotnet: written(/[\u0080-\u{10ffff}<>&'"+`]/u, { upper: true }),
    };
    for (const [writer, spelled] of Object.entries(spellings)) {
      expect(spelled, writer).not.toBe(secret);
      expect(redactor.text(`{"key":"${spelled}"}`), writer).toBe(`{"key":"${REDACTION}"}`);
    }
    // Positive control: JSON of other text keeps its escapes.
    const other = JSON.stringify({ note: "a\\/b \\u043a\\u043b \\u002B" });
    expect(redactor.text(other)).toBe(other);
  });

  it("takes a key out of a hex dump of its bytes, in either case", () => {
    const secret = "tok_live_12345678";
    const hex = Buffer.from(secret).toString("hex");
    const redactor = remembering(secret);
    expect(redactor.text(`bytes ${hex} end`)).toBe(`bytes ${REDACTION} end`);
    expect(redactor.text(`BYTES ${hex.toUpperCase()}`)).toBe(`BYTES ${REDACTION}`);
    // Positive control: other hex, a digest say, stays.
    const digest = Buffer.from("some other value").toString("hex");
    expect(redactor.text(digest)).toBe(digest);
  });

  it("redacts an object the result holds twice both times", () => {
    const secret = "tok_live_12345678";
    const block = { type: "text", text: `key ${secret}` };
    const redacted = remembering(secret).value({ content: [block, block], again: { block } });
    expect(JSON.stringify(redacted)).not.toContain(secret);
  });

  it("remembers a key with a lone surrogate without failing, and ignores keys under 8 characters", () => {
    const odd = `key-\ud800-12345`;
    expect(remembering(odd).text(`x ${odd} y`)).toBe(`x ${REDACTION} y`);
    const short = remembering("1234567");
    expect(short.isEmpty).toBe(true);
    expect(short.text("1234567 MTIzNDU2Nw==")).toBe("1234567 MTIzNDU2Nw==");
  });

  it("shreds nothing that does not spell the key: words, numbers and other base64 stay as they are", () => {
    const redactor = remembering("password", "12345678");
    const text = `passwor d, 1234567, ${Buffer.from("an unrelated picture").toString("base64")}, pass word`;
    expect(redactor.text(text)).toBe(text);
  });
});
