/**
 * The server side of hand-offs: `InteractionManager` keeps interactions for `McpServer`
 * (`new McpServer(info, { interactions: manager })`) and lets the web side complete them.
 */
export { InteractionRequired } from "../../server/interactions.js";
export { InteractionError, type InteractionErrorCode } from "./errors.js";
export { INTERACTION_ID_IN_URL, InteractionManager, type InteractionManagerOptions } from "./manager.js";
