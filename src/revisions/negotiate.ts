/**
 * Version negotiation (spec: basic/lifecycle § Version Negotiation). The client proposes a version in
 * `initialize`; the server answers with the same version when it supports it, otherwise with the
 * latest it supports; a client that does not support the answer disconnects.
 */
import { SdkError } from "../jsonrpc/errors.js";
import type { Revision } from "./revision.js";
import { STATEFUL_REVISIONS } from "./stateful/revisions.js";
import { STATEFUL_VERSIONS, type StatefulVersion } from "./versions.js";

/** Every protocol version this package speaks, newest first. */
export const SUPPORTED_VERSIONS: readonly StatefulVersion[] = STATEFUL_VERSIONS;

/** The version a client proposes and a server falls back to. */
export const LATEST_VERSION: StatefulVersion = "2025-11-25";

/** Whether `version` is one of `supported` (by default every version this package speaks). */
export function isSupportedVersion(
  version: unknown,
  supported: readonly StatefulVersion[] = SUPPORTED_VERSIONS,
): version is StatefulVersion {
  return typeof version === "string" && (supported as readonly string[]).includes(version);
}

/** The `Revision` of a supported version string, or `undefined` for any other string. */
export function revisionFor(version: string): Revision | undefined {
  return isSupportedVersion(version) ? STATEFUL_REVISIONS[version] : undefined;
}

/**
 * Server side: the revision to answer an `initialize` request with. Echoes `requested` when it is in
 * `supported`, otherwise picks the newest of `supported`. Never throws: an unknown or missing version
 * is answered with the newest one and the client decides whether to stay.
 *
 * @param supported versions the server accepts, newest first (default: all of `SUPPORTED_VERSIONS`).
 */
export function negotiateVersion(
  requested: unknown,
  supported: readonly StatefulVersion[] = SUPPORTED_VERSIONS,
): Revision {
  const chosen = isSupportedVersion(requested, supported) ? requested : newest(supported);
  return STATEFUL_REVISIONS[chosen];
}

/**
 * Client side: accepts the version the server answered with, or refuses it.
 *
 * @throws SdkError `INVALID_RESULT` when the server chose a version outside `supported`; the client
 *   should then disconnect (spec: basic/lifecycle § Version Negotiation).
 */
export function acceptServerVersion(
  answered: unknown,
  supported: readonly StatefulVersion[] = SUPPORTED_VERSIONS,
): Revision {
  if (isSupportedVersion(answered, supported)) return STATEFUL_REVISIONS[answered];
  throw new SdkError(
    "INVALID_RESULT",
    `the server chose protocol version ${JSON.stringify(answered)}, which this client does not support ` +
      `(supported: ${supported.join(", ")})`,
  );
}

function newest(supported: readonly StatefulVersion[]): StatefulVersion {
  const first = SUPPORTED_VERSIONS.find((version) => supported.includes(version));
  if (first === undefined) throw new SdkError("INVALID_ARGUMENT", "no supported protocol version was given");
  return first;
}
