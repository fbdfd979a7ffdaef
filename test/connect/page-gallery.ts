/**
 * Serves every page state (`pageStates`) on 127.0.0.1 at `/<state>`, with each page's own headers
 * (its CSP included), so a browser renders them exactly as the connect handler sends them.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { renderPage } from "../../src/connect/index.js";
import { pageStates } from "./page-states.js";

export interface Gallery {
  origin: string;
  names: string[];
  close(): Promise<void>;
}

export async function startGallery(): Promise<Gallery> {
  const states = pageStates();
  const server: Server = createServer((req, res) => {
    const spec = states[(req.url ?? "/").slice(1)];
    if (spec === undefined) {
      res.writeHead(404).end();
      return;
    }
    const response = renderPage(spec);
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    void response.text().then((html) => res.writeHead(response.status, headers).end(html));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    names: Object.keys(states),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
