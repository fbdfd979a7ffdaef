/**
 * The options of `StreamableHttpServer` and what an adapter passes with each request, with the
 * checks of the options in ms.
 */
import type { Logger } from "../../jsonrpc/logger.js";
import type { Transport } from "../../jsonrpc/transport.js";
import type { AuthInfo } from "../../model/identity.js";
import { MAX_TIMER_MS } from "./constants.js";
import type { EventStore } from "./event-store.js";
import type { FleetOptions } from "./fleet.js";
import type { OriginPolicy } from "./origin.js";
import type { StreamableHttpSessionTransport } from "./session-transport.js";

/** Options of `new StreamableHttpServer(options)`; the Origin/Host policy comes from `OriginPolicy`. */
export interface StreamableHttpServerOptions extends OriginPolicy {
  /**
   * Called with a fresh transport for each new session (an `initialize` request); the
   * protocol layer connects to it. Messages wait until the transport is started. A session
   * whose `initialize` is answered with an error closes once that answer is sent. In
   * stateless mode it is called for every POST, and that transport closes itself once the
   * POST is answered or its client leaves the SSE answer. A promise it returns is awaited
   * (e.g. `(t) => mcpServer.connect(t)`); a throw or rejection answers the POST with 500.
   */
  onsession: (transport: StreamableHttpSessionTransport) => unknown;
  /**
   * Revision 2026-07-28: called with a fresh transport for each stateless-era POST (no
   * `Mcp-Session-Id`; a version in `_meta`, `server/discover`, or a 2026 `MCP-Protocol-Version`),
   * which carries that one request and closes after its answer; no session is created. The
   * protocol layer connects to it as to any transport, e.g. `(t) => mcpServer.connect(t)`; a
   * promise it returns is awaited. Without it such POSTs are treated as before (they need a session).
   */
  onrequest?: (transport: Transport) => unknown;
  /**
   * Makes session ids (visible ASCII only). Default `crypto.randomUUID`. Passing
   * `sessionIdGenerator: undefined` explicitly selects stateless mode, for hosts where any
   * instance may get any POST: no `Mcp-Session-Id`, GET and DELETE answer 405. `initialize` is
   * answered as usual, and every later POST is served on its own transport as if that handshake
   * had happened there, at the revision its `MCP-Protocol-Version` names (2025-03-26 when it names
   * none; an unsupported one gets 400), with no client capabilities known, so the server sends no
   * elicitation, sampling or roots request. A client that leaves its POST cancels its requests.
   */
  sessionIdGenerator?: (() => string) | undefined;
  /**
   * Makes SSE streams resumable with `Last-Event-ID`; see `MemoryEventStore`. Each SSE
   * connection then opens with a priming event (an event id and empty data). A resumption the
   * store cannot serve whole (it dropped events after that id, does not know the id, or the id
   * is of another session) gets 410 with a -32000 error; so does any `Last-Event-ID` without a store.
   */
  eventStore?: EventStore;
  /**
   * Several instances behind one endpoint serve the same sessions, any request on any instance
   * (`sessions`: the `SessionDirectory`, `bus`: the `MessageBus`, both shared by every instance;
   * `channelPrefix`: of the bus channels, one per session, default `mcp-handoff:sessions:`). Needs
   * an `eventStore` shared by every instance too. When `initialize` is answered the session's
   * record (revision, client capabilities, `clientInfo`, owner) is in the directory before the
   * answer leaves; `logging/setLevel` and `resources/subscribe`/`unsubscribe` update it before
   * theirs. A request for a session another instance opened is served here by a replica made
   * from that record (404 when the directory does not know it or it is another caller's, 503 when
   * the directory does not answer). What the server sends outside a request open on this
   * instance is stored on the session's GET stream and written by whichever instance holds that
   * stream, or replayed by the next GET on any instance. The client's answer to a request of the
   * server reaches the instance that asked, through the bus. DELETE on any instance ends the
   * session on all; idle expiry ends only this instance's replica, and activity keeps the record
   * alive (at most one touch per quarter of `sessionIdleTimeoutMs`; the record lives 1.25 times
   * that after the last). Requests of the server still waiting on an instance that dies are lost:
   * the client's request they belonged to fails when its stream cannot be resumed.
   * @throws TypeError from the constructor without `eventStore`, or in stateless mode.
   */
  fleet?: FleetOptions;
  /**
   * ms a client should wait before reconnecting to a dropped SSE stream, sent as the `retry`
   * field of each priming event (so only with an `eventStore`; default: not sent there) and of
   * the last event on a connection the server closes for `maxSseConnectionMs` (default 1,000).
   * @throws TypeError from the constructor when it is not a non-negative integer.
   */
  retryIntervalMs?: number;
  /**
   * Answer POSTs with one JSON body instead of an SSE stream when the client's `Accept` allows
   * both. Default false. A client that accepts only one of them gets that one either way.
   */
  enableJsonResponse?: boolean;
  /**
   * Bytes; default 4 MiB. A larger body gets 413 with a JSON-RPC error -32600 naming the limit in its
   * message and as `error.data.maxBytes`. The server reads and drops up to 16 MiB more of such a
   * body, so a client that sends all of it before reading gets the 413; a longer one is cut off.
   */
  maxBodyBytes?: number;
  /**
   * ms the client has to send a POST's body, from when the server starts reading it; a body still
   * arriving then gets 408 with a -32000 error naming the bound (`error.data.timeoutMs`), and on
   * `node:http` the connection is closed (there, one timer per bound serves every body being read,
   * so a body may be ended up to 1,000 ms after its bound, never before). Default 30,000;
   * `Infinity` leaves it to the runtime. The
   * headers arrive before any handler runs: bound them on the server (see `nodeServerOptions`).
   * @throws TypeError from the constructor when it is neither `Infinity` nor an integer from 1 to
   *   2,147,483,647.
   */
  bodyTimeoutMs?: number;
  /**
   * ms without any request, while no connection of its client is open (no GET stream, no answer
   * to a POST still streaming or awaited), after which a session ends (its id then gets 404), so
   * sessions abandoned without a DELETE do not live for ever. Requests still in flight whose
   * client left (a hand-off waiting for its user, say) do not keep it: they are cancelled. Default 1,800,000 (30 minutes); `Infinity` keeps sessions until DELETE or `close()`.
   * @throws TypeError from the constructor when it is neither `Infinity` nor an integer from 1 to
   *   2,147,483,647 (the longest delay a timer can wait).
   */
  sessionIdleTimeoutMs?: number;
  /**
   * ms an SSE stream (a GET stream, or a POST's answer) may stay silent before the server writes
   * an SSE comment (`: keep-alive`) on it, which clients ignore (it is no event, spec:
   * basic/transports § Streamable HTTP). It keeps proxies from closing quiet connections and
   * shows up dead ones: a stream whose write fails, or whose client took nothing since the
   * previous keep-alive, ends as if the client had left, so its session can expire. Default
   * 15,000; `0` or `Infinity` turns keep-alives off.
   * @throws TypeError from the constructor when it is neither `0`, `Infinity` nor an integer
   *   from 1 to 2,147,483,647.
   */
  keepAliveIntervalMs?: number;
  /**
   * ms an SSE connection may stay open before the server closes it, where the client can carry
   * on: the GET stream (the client opens it again; notifications wait for it meanwhile), and with
   * an `eventStore` every stream (the client resumes with `Last-Event-ID`). The connection ends
   * with an event carrying `retry: retryIntervalMs` (1,000 when unset), which clients must wait
   * before reconnecting (spec 2025-11-25: basic/transports § Sending Messages to the Server). It
   * bounds how long a client that stopped reading, or vanished without a FIN, holds its stream
   * and keeps its session busy: keep-alives cannot see bytes buffered by the kernel. A POST's
   * stream without an event store cannot be resumed, so it stays until its response. Default
   * 300,000 (5 minutes); `Infinity` turns it off.
   * @throws TypeError from the constructor when it is neither `Infinity` nor an integer from 1 to
   *   2,147,483,647.
   */
  maxSseConnectionMs?: number;
  /**
   * Accepted `MCP-Protocol-Version` values of requests within a session; default: the stateful
   * revisions (2024-11-05 … 2025-11-25). Stateless 2026-07-28 POSTs are served when `onrequest` is set.
   */
  supportedProtocolVersions?: readonly string[];
  /** Unexpected failures, answered with 500; when set, they go here instead of to `logger`. */
  onerror?: (error: Error) => void;
  /**
   * Where unexpected failures (answered with 500) are reported without `onerror`, as
   * `logger.error({ err }, message)`; a pino logger can be passed as it is. Default `consoleLogger()`.
   */
  logger?: Logger;
}

/** What the adapter in front of `handle` knows besides the request. */
export interface HandleExtra {
  /**
   * Verified bearer-token information, passed on to the protocol layer. A session opened with it
   * belongs to its user (issuer and `sub`; a token without `sub` to that token): a request on
   * that session with another user's token, or with none, gets the 404 of an unknown session, as
   * does a request with a token on a session opened without one.
   */
  authInfo?: AuthInfo;
  /** The local socket address the request arrived on; a loopback one enables the Host check. */
  localAddress?: string;
}

/** An option in ms that is `Infinity` or an integer a timer can wait. @throws TypeError otherwise. */
export function timerOption(name: string, value: number): number {
  if (value !== Number.POSITIVE_INFINITY && !(Number.isSafeInteger(value) && value >= 1 && value <= MAX_TIMER_MS)) {
    throw new TypeError(`${name} must be Infinity or an integer from 1 to ${MAX_TIMER_MS}, got ${value}`);
  }
  return value;
}

/**
 * `keepAliveIntervalMs` checked: `undefined` when keep-alives are off (0 or Infinity), else the
 * interval. @throws TypeError for anything but 0, Infinity or an integer from 1 to 2^31 − 1.
 */
export function keepAliveOption(value: number): number | undefined {
  if (value === 0 || value === Number.POSITIVE_INFINITY) return undefined;
  if (!(Number.isSafeInteger(value) && value >= 1 && value <= MAX_TIMER_MS)) {
    throw new TypeError(
      `keepAliveIntervalMs must be 0, Infinity or an integer from 1 to ${MAX_TIMER_MS}, got ${value}`,
    );
  }
  return value;
}
