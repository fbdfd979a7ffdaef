/** The bare JSON-RPC baseline: the floor every other figure is divided by. */
import { entry } from "../process.js";
import type { Implementation } from "../types.js";
import { openBareHttp, openBareStateless } from "./http-client.js";
import { openBareStdio } from "./stdio-client.js";

const httpServer = entry("./http-server.ts", import.meta.url);

export const bare: Implementation = {
  name: "bare",
  label: "bare JSON-RPC loop (raw node:http client with a keep-alive agent, node:http server)",
  stdioServer: entry("./stdio-server.ts", import.meta.url),
  httpServer,
  statelessServer: httpServer,
  openStdio: openBareStdio,
  openHttp: openBareHttp,
  openStateless: openBareStateless,
};
