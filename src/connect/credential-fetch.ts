/**
 * `ctx.credentials.fetch` as `CredentialBroker` and `LocalCredentials` run it: one request with
 * the user's credential attached, sent only to an allowed destination (`destination.ts`), its
 * redirects followed here and checked one by one, an OAuth 401 answered by one forced renewal and
 * one retry, each use written to the audit log, and the response handed back without the secret.
 */
import { SdkError } from "../jsonrpc/errors.js";
import type { Logger } from "../jsonrpc/logger.js";
import type { UserRef } from "../model/identity.js";
import type { StoredCredential } from "../model/interaction.js";
import type { CredentialFetchInit, RequestContext } from "../server/index.js";
import { AUDIT_MAX_HOST_LENGTH, AUDIT_MAX_REASON_LENGTH, auditClient, isAuditMethod } from "../stores/audit.js";
import type { AuditEntry, CredentialVault } from "../stores/types.js";
import { type CredentialDestination, type DestinationRule, refusal, refused } from "./destination.js";
import { scrubResponse, textScrubber } from "./scrub-response.js";

/** Redirects followed by default before the request is refused. */
export const DEFAULT_MAX_REDIRECTS = 5;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Headers that describe a body, dropped with it when a redirect turns the request into a GET. */
const BODY_HEADERS = ["content-type", "content-length", "content-encoding", "content-language", "content-location"];

/** What the source lends every use. */
export interface CredentialFetchSettings {
  /** Sends one request; `globalThis.fetch` unless the source was given another. */
  fetch: typeof globalThis.fetch;
  /** The source's `unsafeHttpLoopbackForDevelopment`. */
  httpLoopback: boolean;
  maxRedirects: number;
  /** `auditTo(log, logger)`. */
  audit: (entry: AuditEntry) => Promise<void>;
  vault: Pick<CredentialVault, "markUsed">;
  logger: Logger;
  /** ms since the epoch. */
  now: () => number;
}

/**
 * The settings of a credential source's `fetch`, from the options the broker and the local
 * credentials both take: their `fetch` (default `globalThis.fetch`), their loud
 * `unsafeHttpLoopbackForDevelopment` and `maxRedirects` (default `DEFAULT_MAX_REDIRECTS`).
 */
export function credentialFetchSettings(
  options: { fetch?: typeof globalThis.fetch; unsafeHttpLoopbackForDevelopment?: boolean; maxRedirects?: number },
  shared: Pick<CredentialFetchSettings, "audit" | "vault" | "logger" | "now">,
): CredentialFetchSettings {
  return {
    fetch: options.fetch ?? globalThis.fetch,
    httpLoopback: options.unsafeHttpLoopbackForDevelopment === true,
    maxRedirects: options.maxRedirects ?? DEFAULT_MAX_REDIRECTS,
    ...shared,
  };
}

/** One call of `ctx.credentials.fetch`. */
export interface CredentialUse {
  provider: string;
  user: UserRef;
  ctx: RequestContext;
  destination: CredentialDestination;
  /** The credential to attach (may hand the user off: it throws what `require` throws). */
  obtain(): Promise<StoredCredential>;
  /** Renews the credential after a 401, even if it has not expired; `undefined` when it cannot be. */
  renew?(stale: StoredCredential): Promise<StoredCredential | undefined>;
}

/** The request as it is sent on each hop: the body is held, so that a 307, 308 or a retry can send it again. */
interface Outgoing {
  url: URL;
  method: string;
  headers: Headers;
  body: ArrayBuffer | undefined;
}

/**
 * Sends `input` with the credential of `use` attached. See `RequestContext.credentials.fetch` for
 * the rules and errors.
 */
export async function fetchWithCredential(
  settings: CredentialFetchSettings,
  use: CredentialUse,
  input: string | URL | Request,
  init: CredentialFetchInit,
): Promise<Response> {
  const { provider, destination } = use;
  const rule: DestinationRule = { provider, hosts: destination.hosts, httpLoopback: settings.httpLoopback };
  const { credential: _request, ...requestInit } = init;
  const url = parseUrl(input instanceof Request ? input.url : input, provider);
  const record = auditor(settings, use);
  // Checked before anything else, so a refused destination costs no hand-off and no renewal.
  const reason = refusal(url, rule);
  if (reason !== undefined) {
    await record("refused", url, requestInit.method ?? (input instanceof Request ? input.method : "GET"), { reason });
    throw refused(provider, reason);
  }
  const first = await outgoing(url, input, requestInit, destination, provider);
  const signal = AbortSignal.any([use.ctx.signal, ...(requestInit.signal ? [requestInit.signal] : [])]);
  let credential = await use.obtain();
  const secrets = [credential.secret, ...(credential.refreshToken === undefined ? [] : [credential.refreshToken])];
  let renewed = false;
  let request = first;
  let hops = 0;
  for (;;) {
    const response = await send(settings, use, request, credential, signal, secrets, record);
    if (response.status === 401 && use.renew !== undefined && !renewed) {
      renewed = true;
      const next = await use.renew(credential).catch((error: unknown) => {
        settings.logger.error(
          { err: scrubbedError(error, secrets), provider },
          "Could not renew a credential after a 401",
        );
        return undefined;
      });
      if (next !== undefined && next.secret !== credential.secret) {
        await response.body?.cancel();
        credential = next;
        secrets.push(next.secret, ...(next.refreshToken === undefined ? [] : [next.refreshToken]));
        request = first;
        hops = 0;
        continue;
      }
    }
    const location = REDIRECTS.has(response.status) ? response.headers.get("location") : null;
    if (location === null) {
      await markUsed(settings, use);
      return scrubResponse(response, secrets);
    }
    await response.body?.cancel();
    hops += 1;
    if (hops > settings.maxRedirects) {
      const reason = `more than ${settings.maxRedirects} redirects from ${request.url.host}`;
      await record("refused", request.url, request.method, { reason });
      throw refused(provider, reason);
    }
    const target = redirectTarget(location, request.url);
    const why = target === undefined ? "the Location is not a URL" : refusal(target, rule);
    if (target === undefined || why !== undefined) {
      const reason = `${request.url.host} redirected elsewhere: ${why}`;
      await record("refused", target ?? request.url, request.method, { reason });
      throw refused(provider, reason);
    }
    request = redirected(request, target, response.status);
  }
}

function parseUrl(input: string | URL, provider: string): URL {
  try {
    return new URL(input);
  } catch {
    throw new SdkError("INVALID_ARGUMENT", `ctx.credentials.fetch for ${provider} needs an absolute URL`);
  }
}

/** The request as the caller made it, read once: its method, headers and whole body. */
async function outgoing(
  url: URL,
  input: string | URL | Request,
  init: RequestInit,
  destination: CredentialDestination,
  provider: string,
): Promise<Outgoing> {
  const streamed = typeof ReadableStream !== "undefined" && init.body instanceof ReadableStream;
  const request = new Request(input instanceof Request ? input : url, {
    ...init,
    ...(streamed ? { duplex: "half" } : {}),
  } as RequestInit);
  // The caller's own value would either replace the credential or be replaced by it unseen.
  if (request.headers.has(destination.header)) {
    throw new SdkError(
      "INVALID_ARGUMENT",
      `ctx.credentials.fetch sets the ${destination.header} header for ${provider} itself; leave it out of the request`,
    );
  }
  const body = request.body === null ? undefined : await request.arrayBuffer();
  return { url, method: request.method, headers: new Headers(request.headers), body };
}

/** Sends one hop with the credential attached, and records it. */
async function send(
  settings: CredentialFetchSettings,
  use: CredentialUse,
  request: Outgoing,
  credential: StoredCredential,
  signal: AbortSignal,
  secrets: readonly string[],
  record: Recorder,
): Promise<Response> {
  const { header, scheme } = use.destination;
  const headers = new Headers(request.headers);
  headers.set(header, scheme === undefined ? credential.secret : `${scheme} ${credential.secret}`);
  const host = request.url.host;
  let response: Response;
  try {
    response = await settings.fetch(request.url.href, {
      method: request.method,
      headers,
      ...(request.body === undefined ? {} : { body: request.body }),
      redirect: "manual",
      signal,
    });
  } catch (error) {
    await record("failed", request.url, request.method, { reason: signal.aborted ? "cancelled" : "no answer" });
    if (signal.aborted) {
      throw new SdkError("REQUEST_CANCELLED", `The ${use.provider} request to ${host} was cancelled`);
    }
    throw new SdkError("TRANSPORT_ERROR", `Could not reach ${host} with the ${use.provider} credential`, {
      cause: scrubbedError(error, secrets),
    });
  }
  await record("ok", request.url, request.method, { status: response.status });
  return response;
}

/** The next hop after a redirect (Fetch standard § HTTP-redirect fetch): 303, and 301/302 after a POST, become a GET without body. */
function redirected(request: Outgoing, target: URL, status: number): Outgoing {
  const toGet =
    (status === 303 && request.method !== "GET" && request.method !== "HEAD") ||
    ((status === 301 || status === 302) && request.method === "POST");
  if (!toGet) return { ...request, url: target };
  const headers = new Headers(request.headers);
  for (const name of BODY_HEADERS) headers.delete(name);
  return { url: target, method: "GET", headers, body: undefined };
}

function redirectTarget(location: string, base: URL): URL | undefined {
  try {
    return new URL(location, base);
  } catch {
    return undefined;
  }
}

type Recorder = (
  outcome: AuditEntry["outcome"],
  url: URL,
  method: string,
  detail: { status?: number; reason?: string },
) => Promise<void>;

/** Appends "credential.used" records naming the user, the client and the session of `use`. */
function auditor(settings: CredentialFetchSettings, use: CredentialUse): Recorder {
  const session = use.ctx.session;
  // As the client declared it, of any length: cleaned, so that no client can name itself out of the log.
  const client = auditClient(use.ctx.clientInfo ?? session.clientInfo);
  return (outcome, url, method, { reason, ...rest }) => {
    // A method that is no HTTP token (only a refused request can have one) is left out.
    const shown = method.toUpperCase();
    return settings.audit({
      at: settings.now(),
      event: "credential.used",
      user: use.user,
      ...(client === undefined ? {} : { client }),
      sessionId: session.id,
      provider: use.provider,
      outcome,
      detail: {
        host: auditedHost(url),
        ...(isAuditMethod(shown) ? { method: shown } : {}),
        ...rest,
        ...(reason === undefined ? {} : { reason: clip(reason, AUDIT_MAX_REASON_LENGTH) }),
      },
    });
  };
}

/** The host as the record holds it: a name too long for a record (a redirect's) cut to fit, without its port. */
function auditedHost(url: URL): string {
  return url.host.length <= AUDIT_MAX_HOST_LENGTH ? url.host : url.hostname.slice(0, AUDIT_MAX_HOST_LENGTH);
}

function clip(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}

async function markUsed(settings: CredentialFetchSettings, use: CredentialUse): Promise<void> {
  try {
    await settings.vault.markUsed?.(use.user, use.provider, settings.now());
  } catch (error) {
    settings.logger.error({ err: error, provider: use.provider }, "Could not record when a credential was last used");
  }
}

/** An error's message and its causes' messages and codes, without any spelling of `secrets`. */
function scrubbedError(error: unknown, secrets: readonly string[]): Error {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current !== undefined && current !== null; depth++) {
    if (current instanceof Error) {
      const code = (current as { code?: unknown }).code;
      parts.push(typeof code === "string" ? `${current.message} (${code})` : current.message);
      current = current.cause;
    } else {
      parts.push(String(current));
      break;
    }
  }
  return new Error(textScrubber(secrets)(parts.join(": ")));
}
