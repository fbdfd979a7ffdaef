/**
 * The protocol revisions this package speaks. The stateful era uses the `initialize` handshake and
 * server-initiated requests (spec: basic/lifecycle); the stateless era has neither.
 */

/** Stateful-era revisions, newest first. */
export const STATEFUL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;
/** One of `STATEFUL_VERSIONS`, e.g. `"2025-11-25"`. */
export type StatefulVersion = (typeof STATEFUL_VERSIONS)[number];

/**
 * Stateless-era revisions, newest first: no handshake, every request carries its version and the
 * client's capabilities in `_meta` (spec 2026-07-28: basic/index § _meta).
 */
export const STATELESS_VERSIONS = ["2026-07-28"] as const;
/** One of `STATELESS_VERSIONS`, e.g. `"2026-07-28"`. */
export type StatelessVersion = (typeof STATELESS_VERSIONS)[number];

/** Every revision with a codec here. */
export type ProtocolVersion = StatefulVersion | StatelessVersion;
