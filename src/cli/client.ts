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
import type { InteractionStatus } from "../interaction/model.js";
import { StdioClientTransport } from "../transports/stdio/index.js";
import type { Transport } from "../transports/transport.js";
import { CliError, ExitCode } from "./exit-codes.js";
import { createTransport, describeTarget, type Target } from "./target.js";
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
> & {
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
}

export interface ConnectOptions {
  /** ms to wait for the `initialize` result. */
  timeoutMs: number;
  signal?: AbortSignal;
}

/** A stdio server that exited before answering the handshake (exit code 3). */
export class ServerExitedError extends CliError {
  override readonly name = "ServerExitedError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(ExitCode.Connection, message, options);
  }
}

/**
 * Starts the target's transport and runs the handshake (see {@link connectOver}).
 * @throws ServerExitedError when a stdio server exits before answering; SdkError
 *   "TRANSPORT_ERROR" when the server cannot be started or reached; ProtocolError when it
 *   refuses `initialize`.
 */
export async function connectClient(target: Target, setup: ClientSetup, options: ConnectOptions): Promise<CliClient> {
  const transport = createTransport(target);
  try {
    return await connectOver(transport, setup, options);
  } catch (error) {
    // The handshake's own error ("not connected") hides the cause: the process is gone.
    const exit = transport instanceof StdioClientTransport ? transport.exitStatus : undefined;
    if (exit === undefined) throw error;
    const how = exit.signal === null ? `with code ${exit.code}` : `on signal ${exit.signal}`;
    throw new ServerExitedError(
      `the server process \`${describeTarget(target)}\` exited ${how} before answering (its stderr is above)`,
      { cause: error },
    );
  }
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
  await client.connect(transport, {
    timeoutMs: options.timeoutMs,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  const callWithHandoff = <T>(call: () => Promise<T>, callOptions?: HandoffCallOptions) =>
    handoff.callWithHandoff(call, callOptions);
  return Object.assign(client, { callWithHandoff });
}
