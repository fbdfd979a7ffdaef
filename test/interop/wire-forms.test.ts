/**
 * Which wire form each kind of client gets for a hand-off, found by running real clients against
 * one hand-off server (`wire-forms-server.ts`) and recording what crossed the wire: our
 * `McpClient` with `HandoffClient` on each era, the official SDK v1 client
 * (`@modelcontextprotocol/sdk`) with and without URL-mode elicitation, the official SDK v2 client
 * (`@modelcontextprotocol/client`), the official Inspector's `--cli` mode
 * (`@modelcontextprotocol/inspector`, `mcp-inspector --cli`), our `handoff` command, and our
 * `McpClient` alone, declaring nothing. Each client plays its app and user as such an app
 * would: it opens the page (the user then finishes it) and retries where its era needs a retry.
 * Each runs once more against the server with the hand-off ladder's inbox on. The table in
 * docs/wire-forms.md is checked against what was recorded, row by row.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from "@modelcontextprotocol/client";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  type ClientCapabilities,
  ElicitationCompleteNotificationSchema,
  ElicitRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { ExitCode } from "../../src/cli/exit-codes.js";
import { run as handoffCli } from "../../src/cli/run.js";
import { McpClient } from "../../src/client/index.js";
import { HandoffClient } from "../../src/interaction/client/index.js";
import { StreamableHttpClientTransport } from "../../src/transports/http/index.js";
import { fakeIo } from "../cli/support.js";
import { deferred, ROOT } from "./support.js";
import { elicitationOf, INBOX, LINKED, PAGE, revisionOf, startHandoffServer, wireForm } from "./wire-forms-server.js";

type HandoffServer = Awaited<ReturnType<typeof startHandoffServer>>;
type Tool = "repos" | "repos_wait";
/** Runs one call of `tool` as the client's app would, and returns the text the app ends with. */
type Run = (server: HandoffServer, tool: Tool) => Promise<string>;

const run = promisify(execFile);
/** The Inspector's launcher, the `mcp-inspector` bin, run as `mcp-inspector --cli`. */
const INSPECTOR = join(
  dirname(createRequire(import.meta.url).resolve("@modelcontextprotocol/inspector/package.json")),
  "clients/launcher/build/index.js",
);
const textOf = (result: unknown) =>
  (((result as { content?: unknown }).content ?? []) as { text?: string }[]).map((block) => block.text ?? "").join("");

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** Our `McpClient` without `HandoffClient`: it declares no capability and opens no page. */
const plainOurs: Run = async (server, tool) => {
  const client = new McpClient({ name: "plain", version: "1.0.0" });
  await client.connect(new StreamableHttpClientTransport(server.url));
  closers.push(() => client.close());
  return textOf(await client.callTool({ name: tool, arguments: {} }));
};

/** The `handoff` command: the user consents, the page opens (the user finishes it), and yes to "done?". */
const ourCli: Run = async (server, tool) => {
  const io = fakeIo([true, true, true]);
  io.open = async () => {
    setImmediate(() => void server.finish());
  };
  const code = await handoffCli(["call", server.url.href, tool], io);
  return code === ExitCode.Success ? io.out().trim() : io.err();
};

function ours(protocolVersion?: string): Run {
  return async (server, tool) => {
    const client = new McpClient({ name: "ours", version: "1.0.0" }, protocolVersion ? { protocolVersion } : {});
    const handoff = new HandoffClient(client, {
      onInteraction: async () => {
        setImmediate(() => void server.finish());
        return "accept";
      },
    });
    await client.connect(new StreamableHttpClientTransport(server.url));
    closers.push(() => client.close());
    return textOf(await handoff.callTool({ name: tool, arguments: {} }));
  };
}

/** SDK v1: the app opens the page of a URL elicitation or of a -32042, then retries after the completion. */
function sdkV1(capabilities: ClientCapabilities): Run {
  return async (server, tool) => {
    const client = new V1Client({ name: "sdk-v1", version: "1.0.0" }, { capabilities });
    const completed = deferred<void>();
    client.setNotificationHandler(ElicitationCompleteNotificationSchema, () => completed.resolve());
    client.setRequestHandler(ElicitRequestSchema, () => {
      setImmediate(() => void server.finish());
      return { action: "accept" };
    });
    await client.connect(new V1Transport(server.url));
    closers.push(() => client.close());
    const call = () => client.callTool({ name: tool, arguments: {} });
    const first = await call().catch((error: { code?: number; data?: { elicitations?: { url: string }[] } }) => {
      if (error.code !== -32042 || error.data?.elicitations?.[0]?.url !== PAGE) throw error;
      return undefined;
    });
    if (first !== undefined) return textOf(first);
    await server.finish();
    await completed.promise;
    return textOf(await call());
  };
}

const sdkV2: Run = async (server, tool) => {
  const client = new V2Client(
    { name: "sdk-v2", version: "1.0.0" },
    { capabilities: { elicitation: { url: {} } }, versionNegotiation: { mode: "auto" } },
  );
  client.setRequestHandler("elicitation/create", () => {
    setImmediate(() => void server.finish());
    return { action: "accept" };
  });
  await client.connect(new V2Transport(server.url));
  closers.push(() => client.close());
  return textOf(await client.callTool({ name: tool, arguments: {} }));
};

const inspectorCli: Run = async (server, tool) => {
  const args = ["--cli", server.url.href, "--transport", "http", "--method", "tools/call"];
  const catalog = await mkdtemp(join(tmpdir(), "inspector-"));
  closers.push(() => rm(catalog, { recursive: true, force: true }));
  const { stdout } = await run(process.execPath, [INSPECTOR, ...args, "--tool-name", tool], {
    cwd: ROOT,
    timeout: 30_000,
    // Its catalog of servers goes to a scratch folder, not the home directory.
    env: { ...process.env, MCP_CATALOG_PATH: join(catalog, "mcp.json") },
  }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }));
  // A tool result with `isError` exits 1 with `{"error":{"code":"tool_is_error",…}}` on stdout.
  const printed = JSON.parse(stdout) as { content?: unknown; error?: { message?: string } };
  return printed.error?.message ?? textOf(printed);
};

/**
 * The rows of docs/wire-forms.md's table, by client name: [revision, capabilities declared, `repos`
 * form, `repos_wait` form, `repos` form with the inbox on].
 */
function documented(): Map<string, string[]> {
  const doc = readFileSync(join(ROOT, "docs/wire-forms.md"), "utf8");
  const rows = new Map<string, string[]>();
  for (const line of doc.split("\n")) {
    const cells = line.split(" | ").map((cell) => cell.replace(/^\|\s*|\s*\|$/g, "").trim());
    if (cells.length === 6 && !/^-+$/.test(cells[1] ?? "") && cells[0] !== "client") {
      rows.set(cells[0] as string, cells.slice(1));
    }
  }
  return rows;
}

const CLIENTS: [name: string, run: Run][] = [
  ["`McpClient` + `HandoffClient`", ours()],
  ['`McpClient` + `HandoffClient`, `protocolVersion: "2025-11-25"`', ours("2025-11-25")],
  ['`McpClient` + `HandoffClient`, `protocolVersion: "2025-06-18"`', ours("2025-06-18")],
  ["SDK v2 `Client`, `elicitation: { url: {} }`", sdkV2],
  ["SDK v1 `Client`, `elicitation: { url: {} }`", sdkV1({ elicitation: { url: {} } })],
  ["SDK v1 `Client`, `elicitation: { form: {} }`", sdkV1({ elicitation: { form: {} } })],
  ["Inspector `--cli`", inspectorCli],
  ["`handoff` command", ourCli],
  ["`McpClient` alone", plainOurs],
];

const seen = new Map<string, string[]>();
afterAll(() => {
  // Every documented row was run, and nothing else is documented.
  if (seen.size === CLIENTS.length) expect([...documented().keys()].sort()).toEqual([...seen.keys()].sort());
});

describe("the wire form each kind of client gets for a hand-off", () => {
  it.each(CLIENTS)("%s: as docs/wire-forms.md says", async (name, runClient) => {
    const row: string[] = [];
    for (const tool of ["repos", "repos_wait"] as const) {
      const server = await startHandoffServer();
      closers.push(() => server.close());
      const text = await runClient(server, tool);
      if (row.length === 0) row.push(revisionOf(server.wire), elicitationOf(server.wire));
      const form = wireForm(server.wire);
      // The app ends with the user's data exactly when the hand-off went through.
      expect(text === LINKED, `${tool}: ${text}`).toBe(form.endsWith("→ result"));
      row.push(form);
    }
    // The ladder's last rung: the same first call against a server with the inbox on.
    const inboxServer = await startHandoffServer({ inbox: true });
    closers.push(() => inboxServer.close());
    const inboxText = await runClient(inboxServer, "repos");
    const inboxForm = wireForm(inboxServer.wire);
    expect(inboxText === LINKED, `inbox: ${inboxText}`).toBe(inboxForm.endsWith("→ result"));
    if (inboxForm === "tool error naming the inbox") expect(inboxText).toContain(INBOX);
    row.push(inboxForm);
    seen.set(name, row);
    expect(row).toEqual(documented().get(name));
  });
});
