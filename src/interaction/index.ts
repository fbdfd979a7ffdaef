/**
 * `mcp-handoff/interaction`: out-of-band user interaction (hand-offs). Server side: the
 * `InteractionManager` that creates hand-offs for a verified user and completes them from the web
 * side, and `InteractionRequired` for the error path. Client side: `HandoffClient`, which turns every
 * wire form into one `UrlInteraction` for one handler, the URL checks (`inspectUrl`) and the terminal
 * consent policy. The neutral model types are re-exported too.
 * @module mcp-handoff/interaction
 */

export type { UserRef } from "../model/identity.js";
export type { InteractionStatus, NewInteraction, StoredCredential, UserInteraction } from "../model/interaction.js";
export * from "./client/index.js";
export * from "./server/index.js";
