/**
 * Streamable HTTP transport, server and client (`mcp-handoff/http`).
 * @module mcp-handoff/http
 */

export type { HttpSendOptions } from "../features.js";
export { type StreamableHttpClientOptions, StreamableHttpClientTransport } from "./client.js";
export { DEFAULT_MAX_MESSAGE_BYTES } from "./client-answers.js";
export type { AuthorizableAnswer, HttpPath, RequestAuthorization } from "./client-http.js";
export type { ReconnectOptions } from "./client-sse.js";
export {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_PROTOCOL_VERSIONS,
  LAST_EVENT_ID_HEADER,
  PROTOCOL_VERSION_HEADER,
  SESSION_ID_HEADER,
} from "./constants.js";
export { decodeHeaderValue, type StatelessAnswer, StatelessRequestTransport } from "./eras/stateless.js";
export { StreamableHttpError } from "./errors.js";
export {
  type EventStore,
  EventsEvictedError,
  MemoryEventStore,
  type MemoryEventStoreOptions,
} from "./event-store.js";
export { DEFAULT_FLEET_CHANNEL_PREFIX, type FleetOptions } from "./fleet.js";
export { MemorySessionDirectory, type MemorySessionDirectoryOptions } from "./memory-session-directory.js";
export { type NodeHandler, type NodeHandlerOptions, toNodeHandler } from "./node.js";
export { type NodeServerTimeouts, nodeServerOptions } from "./node-server.js";
export type { WebHandler, WebNodeHandlerOptions } from "./node-web.js";
export type { OriginPolicy } from "./origin.js";
export { type HandleExtra, StreamableHttpServer, type StreamableHttpServerOptions } from "./server.js";
export type { SessionChange, SessionDirectory, SessionRecord } from "./session-directory.js";
export { StreamableHttpSessionTransport } from "./session-transport.js";
