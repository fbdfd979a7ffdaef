/**
 * `mcp-handoff/stdio`: MCP over a child process's stdin and stdout (spec: basic/transports § stdio).
 * @module mcp-handoff/stdio
 */
export {
  type ChildExitStatus,
  defaultEnvironment,
  StdioClientTransport,
  type StdioClientTransportOptions,
} from "./client.js";
export { DEFAULT_MAX_LINE_BYTES } from "./line-reader.js";
export { StdioServerTransport, type StdioServerTransportOptions } from "./server.js";
export { type CloseOnSignalsOptions, closeOnSignals } from "./signals.js";
export { InvalidLineError, type StdioStreamOptions, StdioStreamTransport } from "./stream.js";
