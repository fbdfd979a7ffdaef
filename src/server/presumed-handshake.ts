/** The handshake a server connection starts from when its client initialized on an earlier connection. */
import { type PresumedHandshake, presumeHandshake, presumeSession } from "../revisions/index.js";
import type { PresumedHandshakeOffer } from "../transports/features.js";

/**
 * The handshake a transport's offer stands for: a fleet's session (its revision and the client's
 * capabilities as recorded), or a POST of a server without sessions (the revision it names, no
 * capabilities known). `undefined` when the offer names no stateful revision this package speaks.
 */
export function presumedFrom(offer: PresumedHandshakeOffer): PresumedHandshake | undefined {
  return offer.session === undefined
    ? presumeHandshake(offer.protocolVersion)
    : presumeSession(offer.protocolVersion, offer.session.clientCapabilities);
}
