/** The bare JSON-RPC baseline: the floor every other figure is divided by. */
import { entry } from "../process.js";
import type { Implementation } from "../types.js";
import { openBareHttp, openBareStdio } from "./client.js";

export const bare: Implementation = {
  name: "bare",
  label: "bare JSON-RPC loop",
  stdioServer: entry("./stdio-server.ts", import.meta.url),
  httpServer: entry("./http-server.ts", import.meta.url),
  openStdio: openBareStdio,
  openHttp: openBareHttp,
};
