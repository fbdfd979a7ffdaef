/**
 * The protocol revisions this package speaks. The stateful era uses the `initialize` handshake and
 * server-initiated requests (spec: basic/lifecycle).
 */

/** Stateful-era revisions, newest first. */
export const STATEFUL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;
/** One of `STATEFUL_VERSIONS`, e.g. `"2025-11-25"`. */
export type StatefulVersion = (typeof STATEFUL_VERSIONS)[number];

/** Every revision with a codec here. */
export type ProtocolVersion = StatefulVersion;
