/**
 * `handoff login <target>` and the bearer token every other command sends to an http server:
 * the one a login stored, refreshed when it has expired. A server that answers 401 is offered a
 * login at the terminal; without a terminal the command says how to log in.
 */
import {
  accessTokenFor,
  FileTokenStore,
  LoginError,
  login,
  type StoredToken,
  type TokenStore,
} from "../auth/client/index.js";
import { StreamableHttpError } from "../transports/http/index.js";
import type { CommonOptions } from "./args.js";
import { CliError, ExitCode, UsageError } from "./exit-codes.js";
import type { CliIo } from "./io.js";
import { CANCELLED } from "./prompter.js";
import type { Target } from "./target.js";
import { printable } from "./text.js";

function storeOf(io: CliIo): TokenStore {
  return io.tokens ?? new FileTokenStore();
}

function hasAuthorization(headers: Record<string, string>): boolean {
  return Object.keys(headers).some((name) => name.toLowerCase() === "authorization");
}

/**
 * Logs in for the http server `target` (its authorization server opens in the browser, or its
 * URL is printed with `--no-browser`) and stores the tokens.
 * @throws UsageError for a stdio target; CliError exit code 5 when the authorization is refused
 *   or interrupted, 3 for any other failure of the login.
 */
export async function runLogin(target: Target, io: CliIo, options: CommonOptions): Promise<StoredToken> {
  if (target.kind !== "http") throw new UsageError("login applies to http servers; this entry runs a command");
  const store = storeOf(io);
  try {
    const token = await login({
      resource: target.url,
      store,
      ...(options.clientId === undefined ? {} : { clientId: options.clientId }),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...(io.signal === undefined ? {} : { signal: io.signal }),
      openUrl: async (url, { issuer }) => {
        io.stderr(`Log in at ${printable(issuer)} to use ${printable(target.url.href)}.\n`);
        await showOrOpen(url, io, options.noBrowser);
        io.stderr("Waiting for the browser to come back (Ctrl-C stops)…\n");
      },
    });
    const where = store instanceof FileTokenStore ? `; the token is kept in ${store.path}` : "";
    io.stderr(`Logged in at ${printable(token.issuer)} for ${printable(token.resource)}${where}.\n`);
    return token;
  } catch (error) {
    if (!(error instanceof LoginError)) throw error;
    const interrupted = error.failure === "denied" || (error.failure === "timeout" && io.signal?.aborted === true);
    const hint = error.failure === "registration" && options.clientId === undefined ? " (--client-id ID)" : "";
    throw new CliError(interrupted ? ExitCode.Declined : ExitCode.Connection, `Login failed: ${error.message}${hint}`, {
      cause: error,
    });
  }
}

async function showOrOpen(url: string, io: CliIo, noBrowser: boolean): Promise<void> {
  if (!noBrowser) {
    try {
      await io.open(url);
      return;
    } catch {
      io.stderr("No browser could be opened.\n");
    }
  }
  io.stderr(`Open this URL in your browser:\n  ${printable(url)}\n`);
}

/**
 * `target` with the stored access token as its bearer, unless it already sends an
 * `Authorization` header or no token is stored for its URL.
 */
export async function withStoredToken(target: Target, io: CliIo): Promise<Target> {
  if (target.kind !== "http" || hasAuthorization(target.headers)) return target;
  let token: string | undefined;
  try {
    token = await accessTokenFor(target.url, {
      store: storeOf(io),
      ...(io.signal === undefined ? {} : { signal: io.signal }),
    });
  } catch (error) {
    // The server will answer 401 and a login is offered; the reason is worth a line.
    io.stderr(`The stored login could not be renewed: ${(error as Error).message}\n`);
  }
  return token === undefined ? target : { ...target, headers: { ...target.headers, authorization: `Bearer ${token}` } };
}

/**
 * Whether `error` from connecting to `target` is a 401 that a login may fix: the server wants a
 * token and the target does not send an `Authorization` header of its own (`--header`, config).
 */
export function needsLogin(error: unknown, target: Target): boolean {
  return (
    target.kind === "http" &&
    error instanceof StreamableHttpError &&
    error.status === 401 &&
    !hasAuthorization(target.headers)
  );
}

/**
 * Asks whether to log in now, and does.
 * @throws CliError exit code 3 without a terminal (the message says to run `handoff login`),
 *   5 when the user says no; whatever {@link runLogin} throws.
 */
export async function offerLogin(target: Target, io: CliIo, options: CommonOptions): Promise<void> {
  const url = target.kind === "http" ? target.url.href : "";
  if (!io.interactive) {
    throw new CliError(
      ExitCode.Connection,
      `${printable(url)} needs you to log in: run \`handoff login ${printable(url)}\``,
    );
  }
  const answer = await io.prompter.confirm({
    message: `${printable(url)} needs you to log in. Log in now in your browser?`,
    initialValue: true,
  });
  if (answer === CANCELLED || !answer) throw new CliError(ExitCode.Declined, "Not logged in.");
  await runLogin(target, io, options);
}
