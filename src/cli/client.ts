/**
 * The one place the command makes an `McpClient`, wrapped in a `HandoffClient` so that every wire
 * form of a hand-off (URL-mode elicitation, -32042, the user-interaction proposal's
 * `interaction/create` and -32003) reaches the same consent screen; and the part of it commands use.
 */
import { McpClient } from "../client/index.js";
import type { CallOptions, ElicitationHandler } from "../client/types.js";
import {
  type HandoffCallOptions,
  HandoffClient,
  type InteractionHandler,
  type RefusedHandoff,
  type UrlInteraction,
} from "../interaction/client/index.js";
import { SdkError } from "../jsonrpc/errors.js";
import type { Transport } from "../jsonrpc/transport.js";
import type { InteractionStatus } from "../model/interaction.js";
import { InvalidLineError, StdioClientTransport } from "../transports/stdio/index.js";
import { CliError, ExitCode } from "./exit-codes.js";
import { createTransport, describeTarget, type Target } from "./target.js";
import { clip, printableLine, seconds } from "./text.js";
import { VERSION } from "./version.js";

export type { CallOptions };

/** What commands call on a connected client. */
export type CliClient = Pick<
  McpClient,
  | "listAllTools"
  | "listAllResources"
  | "listAllResourceTemplates"
  | "listAllPrompts"
  | "callTool"
  | "readResource"
  | "close"
  | "serverInfo"
  | "isStateless"
> &
  Partial<Pick<McpClient, "serverCapabilities" | "setLoggingLevel">> & {
    /**
     * Runs `call`, and when it fails because hand-offs are required, takes the user through them
     * and runs it again (see `HandoffClient.callWithHandoff`).
     */
    callWithHandoff<T>(call: () => Promise<T>, options?: HandoffCallOptions): Promise<T>;
  };

/** How the client answers the server: hand-offs, forms, and what it is told about both. */
export interface ClientSetup {
  /** Every hand-off, whatever wire form carried it. */
  onInteraction: InteractionHandler;
  /** Form-mode elicitations. */
  formHandler: ElicitationHandler;
  /** Status changes of hand-offs (completed, expired, ...). */
  onstatus?: (interaction: UrlInteraction, status: InteractionStatus) => void;
  /** A hand-off declined unasked because its URL is not one to open. */
  onrefused?: (refused: RefusedHandoff) => void;
  /** A form refused unasked (-32602) by the client because it carries a URL. */
  onElicitationRefused?: McpClient["onElicitationRefused"];
  /** The MCP server's URL, when it is reached over HTTP: pages on other domains are flagged. */
  serverUrl?: URL;
  /** Errors the client reports beside requests (a stdio line that is not JSON-RPC, a failed hook). */
  onerror?: (error: Error) => void;
  /** The server's log messages (`notifications/message`). */
  onLoggingMessage?: McpClient["onLoggingMessage"];
}

export interface ConnectOptions {
  /** ms to wait for the `initialize` result. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Told of the transport before it starts (a stdio server to stop when the command quits at once). */
  started?: (transport: Transport) => void;
}

/** A stdio server that exited before answering the handshake (exit code 3). */
export class ServerExitedError extends CliError {
  override readonly name = "ServerExitedError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(ExitCode.Connection, message, options);
  }
}

/**
 * Starts the target's transport and runs the handshake (see {@link connectOver}). A line of a
 * stdio server's stdout that is not JSON-RPC is named as the cause when the handshake fails, and
 * goes to `setup.onerror` like every other error the client reports.
 * @throws ServerExitedError when a stdio server exits, times out or writes something else than
 *   JSON-RPC before answering; SdkError "TRANSPORT_ERROR" when the server cannot be started or
 *   reached, "REQUEST_TIMEOUT" when an http server does not answer in time, "REQUEST_CANCELLED"
 *   when `signal` aborts; ProtocolError when it refuses `initialize`.
 */
export async function connectClient(target: Target, setup: ClientSetup, options: ConnectOptions): Promise<CliClient> {
  const transport = createTransport(target);
  options.started?.(transport);
  let badLine: InvalidLineError | undefined;
  const onerror = (error: Error) => {
    if (error instanceof InvalidLineError) badLine ??= error;
    setup.onerror?.(error);
  };
  try {
    return await connectOver(transport, { ...setup, onerror }, options);
  } catch (error) {
    if (!(transport instanceof StdioClientTransport)) throw error;
    if (isSdkError(error, "REQUEST_CANCELLED")) throw error;
    const server = `the server process \`${describeTarget(target)}\``;
    const timedOut = isSdkError(error, "REQUEST_TIMEOUT") ? `timed out after ${seconds(options.timeoutMs)}` : undefined;
    if (badLine !== undefined) {
      const then = timedOut === undefined ? "" : `; no answer followed: ${timedOut}`;
      throw new ServerExitedError(`${server} did not answer: ${describeBadLine(badLine)}${then}`, { cause: error });
    }
    if (timedOut !== undefined) throw new ServerExitedError(`${server} did not answer: ${timedOut}`, { cause: error });
    // The handshake's own error ("not connected") hides the cause: the process is gone.
    const exit = transport.exitStatus;
    if (exit === undefined) throw error;
    const how = exit.signal === null ? `with code ${exit.code}` : `on signal ${exit.signal}`;
    throw new ServerExitedError(`${server} exited ${how} before answering (its stderr is above)`, { cause: error });
  }
}

/**
 * One line about a line of a stdio server's stdout that is not JSON-RPC: where, how it began
 * (cut, control characters shown escaped), and what a server must do instead.
 */
export function describeBadLine(error: InvalidLineError): string {
  const text = error.text === "" ? "" : `: "${clip(printableLine(error.text), BAD_LINE_COLUMNS)}"`;
  return `line ${error.lineNumber} of stdout is not JSON-RPC${text} (a stdio server writes only MCP messages on stdout, its logs on stderr)`;
}

/** Columns of a bad stdout line quoted in a message. */
const BAD_LINE_COLUMNS = 80;

function isSdkError(error: unknown, code: SdkError["code"]): boolean {
  return error instanceof SdkError && error.code === code;
}

/**
 * Runs the handshake over `transport`, declaring both elicitation modes and the user-interaction
 * capability (`userInteraction: { types: ["ua"] }`).
 * @throws SdkError "TRANSPORT_ERROR" when the transport fails; ProtocolError when the server
 *   refuses `initialize`.
 */
export async function connectOver(
  transport: Transport,
  setup: ClientSetup,
  options: ConnectOptions,
): Promise<CliClient> {
  const client = new McpClient({ name: "handoff", version: VERSION });
  const handoff = new HandoffClient(client, {
    onInteraction: setup.onInteraction,
    formHandler: setup.formHandler,
    ...(setup.serverUrl === undefined ? {} : { serverUrl: setup.serverUrl }),
  });
  if (setup.onstatus) handoff.onstatus = setup.onstatus;
  if (setup.onrefused) handoff.onrefused = setup.onrefused;
  if (setup.onElicitationRefused) client.onElicitationRefused = setup.onElicitationRefused;
  if (setup.onerror) client.onerror = setup.onerror;
  if (setup.onLoggingMessage) client.onLoggingMessage = setup.onLoggingMessage;
  await client.connect(transport, {
    timeoutMs: options.timeoutMs,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  const callWithHandoff = <T>(call: () => Promise<T>, callOptions?: HandoffCallOptions) =>
    handoff.callWithHandoff(call, callOptions);
  return Object.assign(client, { callWithHandoff });
}
