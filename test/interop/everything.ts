/**
 * Connecting our McpClient to the official everything server, over stdio or Streamable HTTP,
 * with every client capability declared: elicitation (form and URL), sampling (a canned model
 * answer) and roots. Each test scripts the user's answers through `EverythingPeer.answers`.
 */
import {
  type ElicitationParams,
  type ElicitationResult,
  type LoggingMessageParams,
  McpClient,
} from "../../src/client/index.js";
import type { Transport } from "../../src/jsonrpc/transport.js";
import { StreamableHttpClientTransport } from "../../src/transports/http/index.js";
import { StdioClientTransport } from "../../src/transports/stdio/index.js";
import { EVERYTHING_STDIO, type HttpServerProcess, ROOT, startEverythingHttp } from "./support.js";

export type TransportKind = "stdio" | "http";

/** Passed to the stdio child, to find again in the `get-env` tool's answer. */
export const ENV_MARKER = { MCP_HANDOFF_INTEROP: "everything-stdio" };

/** The roots this client announces. */
export const ROOTS = [{ uri: "file:///work/interop-project", name: "Interop Project" }];

/** What the sampling handler answers, in place of a model. */
export const CANNED_REPLY = "A canned reply from the interop test.";

/** Tools the everything server registers for every client. */
export const ALWAYS_TOOLS = [
  "echo",
  "get-annotated-message",
  "get-env",
  "get-resource-links",
  "get-resource-reference",
  "get-structured-content",
  "get-sum",
  "get-tiny-image",
  "gzip-file-as-resource",
  "toggle-simulated-logging",
  "toggle-subscriber-updates",
  "trigger-long-running-operation",
];

/** Tools it adds after `initialize` because this client declared roots, elicitation and sampling. */
export const CAPABILITY_TOOLS = [
  "get-roots-list",
  "simulate-research-query",
  "trigger-elicitation-request",
  "trigger-sampling-request",
  "trigger-url-elicitation",
];

/** One connection to the everything server and what it told us on the side. */
export interface EverythingPeer {
  readonly client: McpClient;
  /** The server's process id over stdio. */
  readonly pid: number | undefined;
  /** Answers the next elicitations; the default declines. */
  answers: (params: ElicitationParams) => ElicitationResult;
  readonly elicitations: ElicitationParams[];
  readonly samplingRequests: unknown[];
  readonly logs: LoggingMessageParams[];
  readonly updatedUris: string[];
  /** Resolves with the first log entry matching `test`, received already or later. */
  waitForLog(test: (entry: LoggingMessageParams) => boolean): Promise<LoggingMessageParams>;
  /** Resolves once `notifications/resources/updated` for `uri` has arrived. */
  waitForUpdate(uri: string): Promise<void>;
  close(): Promise<void>;
}

/** Starts what the transport needs once per suite: the HTTP server process (stdio needs nothing). */
export async function startEverything(kind: TransportKind): Promise<HttpServerProcess | undefined> {
  return kind === "http" ? await startEverythingHttp() : undefined;
}

export async function connectEverything(
  kind: TransportKind,
  http: HttpServerProcess | undefined,
): Promise<EverythingPeer> {
  const client = new McpClient({ name: "mcp-handoff-interop", version: "1.0.0" });
  const waiters: Array<() => void> = [];
  const notify = () => {
    for (const waiter of waiters.splice(0)) waiter();
  };
  const transport = newTransport(kind, http);
  const peer: EverythingPeer = {
    client,
    get pid() {
      return transport instanceof StdioClientTransport ? transport.pid : undefined;
    },
    answers: () => ({ action: "decline" }),
    elicitations: [],
    samplingRequests: [],
    logs: [],
    updatedUris: [],
    waitForLog: (test) => until(() => peer.logs.find(test)),
    waitForUpdate: async (uri) => {
      await until(() => (peer.updatedUris.includes(uri) ? true : undefined));
    },
    close: () => client.close(),
  };
  const until = <T>(find: () => T | undefined): Promise<T> =>
    new Promise((resolve) => {
      const check = () => {
        const found = find();
        if (found === undefined) waiters.push(check);
        else resolve(found);
      };
      check();
    });

  client.setElicitationHandler(
    (params) => {
      peer.elicitations.push(params);
      return peer.answers(params);
    },
    { modes: ["form", "url"] },
  );
  client.setSamplingHandler((params) => {
    peer.samplingRequests.push(params);
    return { role: "assistant", content: { type: "text", text: CANNED_REPLY }, model: "interop-canned-model" };
  });
  await client.setRoots(ROOTS);
  client.onLoggingMessage = (params) => {
    peer.logs.push(params);
    notify();
  };
  client.onResourceUpdated = (uri) => {
    peer.updatedUris.push(uri);
    notify();
  };
  await client.connect(transport);
  return peer;
}

function newTransport(kind: TransportKind, http: HttpServerProcess | undefined): Transport {
  if (kind === "stdio") {
    // The everything server keeps running after its stdin ends, so every close goes on to SIGTERM;
    // a short grace keeps the suite quick.
    return new StdioClientTransport({
      ...EVERYTHING_STDIO,
      cwd: ROOT,
      env: ENV_MARKER,
      stderr: "ignore",
      closeGraceMs: 300,
    });
  }
  if (!http) throw new Error("the everything server did not start");
  return new StreamableHttpClientTransport(http.url);
}

/** The text of every text block of a result, in order. */
export function texts(result: { content?: ReadonlyArray<{ type: string }> }): string[] {
  return (result.content ?? []).flatMap((block) =>
    block.type === "text" && "text" in block && typeof block.text === "string" ? [block.text] : [],
  );
}
