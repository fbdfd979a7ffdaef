/**
 * A `node:http` proxy in front of a test server, for Streamable HTTP client tests that must hold
 * the same on both HTTP paths of the client (`node:http` and `fetch`): it sees every request,
 * can hold one back, can cut an answer after its first chunk as a broken connection would, and
 * tells when an answer reached the client and when the client's end of it closed.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface ProxiedRequest {
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface ProxyHooks {
  /** Before the request goes on; the proxy waits for a promise it returns. */
  before?(request: ProxiedRequest): Promise<void> | void;
  /** Whether to cut the answer to `request` after its first chunk (the connection then breaks). */
  cut?(request: ProxiedRequest): boolean;
  /** The head of the answer to `request` is on its way to the client. */
  answered?(request: ProxiedRequest): void;
  /** The client's end of the answer to `request` closed: read to its end, cut, or given up. */
  ended?(request: ProxiedRequest): void;
}

export interface HttpProxy {
  /** The proxied endpoint: the upstream URL's path on the proxy's port. */
  url: URL;
  seen: ProxiedRequest[];
  close(): Promise<void>;
}

/** Headers of one connection only, which a proxy does not pass on. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "content-length"]);

export async function startProxy(upstream: URL, hooks: ProxyHooks = {}): Promise<HttpProxy> {
  const seen: ProxiedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let request: ProxiedRequest | undefined;
    let out: ReturnType<typeof httpRequest> | undefined;
    // Watched from the start: the client may give up while the request is still held.
    res.once("close", () => {
      out?.destroy();
      if (request !== undefined) hooks.ended?.(request);
    });
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", async () => {
      const seenRequest: ProxiedRequest = {
        method: req.method ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      request = seenRequest;
      seen.push(seenRequest);
      await hooks.before?.(seenRequest);
      if (res.destroyed) return;
      const headers = { ...req.headers, host: upstream.host };
      out = httpRequest(upstream, { method: req.method, headers }, (answer) => {
        const passed: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(answer.headers)) {
          if (value !== undefined && !HOP_BY_HOP.has(name)) passed[name] = value;
        }
        res.writeHead(answer.statusCode ?? 502, passed);
        res.flushHeaders();
        hooks.answered?.(seenRequest);
        const cut = hooks.cut?.(seenRequest) ?? false;
        answer.on("data", (chunk: Buffer) => {
          // Cut once the chunk is out, so that the client surely received it.
          if (cut) res.write(chunk, () => res.destroy());
          else res.write(chunk);
        });
        answer.on("end", () => res.end());
      });
      out.on("error", () => res.destroy());
      out.end(seenRequest.body === "" ? undefined : seenRequest.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}${upstream.pathname}`),
    seen,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
