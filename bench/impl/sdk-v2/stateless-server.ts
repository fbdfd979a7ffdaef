/**
 * The official SDK v2 server for revision 2026-07-28, wired as its documentation shows:
 * `createMcpHandler` with a server factory, one instance per request, behind the same
 * `node:http` adapter as its session server.
 */
import { createMcpHandler } from "@modelcontextprotocol/server";
import { serveHttp } from "../http-host.js";
import { answerForm } from "../server-args.js";
import { MAX_MESSAGE_BYTES } from "../types.js";
import { toWebRequest, writeWebResponse } from "./node-adapter.js";
import { buildServer } from "./tools.js";

const form = answerForm();
const handler = createMcpHandler(() => buildServer(), {
  responseMode: form === "default" ? "auto" : form,
  maxRequestBodySize: MAX_MESSAGE_BYTES,
});

await serveHttp(async (req, res) => {
  await writeWebResponse(await handler.fetch(await toWebRequest(req, res)), res);
});
