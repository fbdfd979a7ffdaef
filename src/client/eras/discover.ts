/**
 * The `server/discover` probe that opens the stateless era (spec 2026-07-28: basic/versioning
 * § Backward Compatibility): which stateless revision the server speaks, or that it is an older
 * server the client should `initialize` with instead.
 */

import { SdkError } from "../../jsonrpc/errors.js";
import { openGate } from "../../jsonrpc/gate.js";
import type { JsonRpcSession, Params, Result } from "../../jsonrpc/session.js";
import {
  createStatelessClientGate,
  eraOfVersion,
  LATEST_STATELESS_VERSION,
  type ParamHeader,
  pickStatelessVersion,
  probeFailure,
  readDiscoverResult,
  standardHeaders,
} from "../../revisions/index.js";
import { withDeadline } from "../checks.js";
import type { HeaderTransport } from "../header-transport.js";
import type { ConnectOptions } from "../options.js";
import type { ClientCapabilities, InitializeResult, ServerCapabilities } from "../types.js";

/** What the probe needs from the stateless driver. */
export interface DiscoverHost {
  /** The version `options.protocolVersion` pins, if any. */
  pinnedVersion: string | undefined;
  /** ms the probe waits before the server counts as an older one; default 10,000. */
  probeTimeoutMs: number | undefined;
  /** Computes the capabilities to declare and remembers them as sent. */
  declare(): ClientCapabilities;
  /** The `_meta` a request of `version` carries, as params. */
  params(version: string): Params;
  /** The `x-mcp-header` annotations of a listed tool, by its name. */
  headerHints(name: string): ParamHeader[] | undefined;
}

/**
 * Probes the server. Resolves with the server's answer in the shape of an `initialize` result
 * when it speaks a stateless revision this client does (the session's gate and the transport's
 * headers are then set for it); with `undefined` when it is an older server and `initialize`
 * should follow. With a stateless version pinned, an older server is an error instead.
 * @throws SdkError "INVALID_RESULT" when a pinned stateless client meets an older server.
 */
export async function discover(
  session: JsonRpcSession,
  transport: HeaderTransport,
  host: DiscoverHost,
  options: ConnectOptions,
): Promise<InitializeResult | undefined> {
  const pinned = eraOfVersion(host.pinnedVersion) === "stateless";
  let version: string = host.pinnedVersion ?? LATEST_STATELESS_VERSION;
  session.setGate(openGate);
  host.declare();
  transport.headersFor = (method, params) =>
    standardHeaders(method, params, host.headerHints(String(params?.name)), version);
  for (let attempt = 0; attempt < 2; attempt++) {
    let answer: Result;
    try {
      answer = await withDeadline(
        session.request("server/discover", host.params(version), { timeoutMs: Number.POSITIVE_INFINITY }),
        Math.min(options.timeoutMs ?? Number.POSITIVE_INFINITY, host.probeTimeoutMs ?? 10_000),
        options.signal,
      );
    } catch (error) {
      if (options.signal?.aborted) throw error;
      const failure = probeFailure(error);
      if (failure.era === "modern") {
        // A modern server that refused the version: retry with one it listed, never fall back.
        const other = pickStatelessVersion(failure.supported);
        if (other !== undefined && (!pinned || other === version)) {
          version = other;
          continue;
        }
        if (pinned || !failure.supported.some((v) => eraOfVersion(v) === "stateful")) throw error;
      }
      if (pinned) throw error;
      transport.headersFor = undefined;
      return undefined;
    }
    const discovered = readDiscoverResult(answer);
    const chosen = pinned
      ? discovered.supportedVersions.includes(version)
        ? version
        : undefined
      : pickStatelessVersion(discovered.supportedVersions);
    if (chosen === undefined) {
      if (pinned) {
        throw new SdkError(
          "INVALID_RESULT",
          `The server supports ${discovered.supportedVersions.join(", ") || "no version"}, not ${version}`,
        );
      }
      transport.headersFor = undefined;
      return undefined;
    }
    version = chosen;
    session.setGate(createStatelessClientGate());
    return {
      protocolVersion: chosen,
      capabilities: discovered.capabilities as ServerCapabilities,
      serverInfo: discovered.serverInfo ?? { name: "", version: "" },
      ...(discovered.instructions === undefined ? {} : { instructions: discovered.instructions }),
    };
  }
  transport.headersFor = undefined;
  return undefined;
}
