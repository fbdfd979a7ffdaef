/**
 * The redirect target of a native client (RFC 8252 § 7.3): a one-shot HTTP listener on
 * 127.0.0.1 with a port the system picks, for `/callback` only. The browser lands here with
 * the authorization response; the page it sees says whether the terminal can go on.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface LoopbackRedirect {
  /** `http://127.0.0.1:<port>/callback`. */
  readonly redirectUri: string;
  /**
   * Hands the first request to `/callback` (its full URL) to `handle` and settles as it does; the
   * browser is told whether it succeeded. Other paths get 404 and are otherwise ignored.
   * @throws whatever `handle` throws; the signal's reason when `signal` aborts first.
   */
  receive<T>(handle: (url: URL) => Promise<T>, signal: AbortSignal): Promise<T>;
  close(): Promise<void>;
}

/** Starts listening on 127.0.0.1 (never on other interfaces). */
export async function startLoopbackRedirect(): Promise<LoopbackRedirect> {
  let deliver: ((url: URL) => Promise<boolean>) | undefined;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", redirectUri);
    if (url.pathname !== "/callback" || req.method !== "GET" || deliver === undefined) {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found\n");
      return;
    }
    const handle = deliver;
    deliver = undefined;
    void handle(url).then((ok) => {
      res
        .writeHead(ok ? 200 : 400, {
          "content-type": "text/html; charset=utf-8",
          "cache-control": "no-store",
          "referrer-policy": "no-referrer",
        })
        .end(page(ok));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
  return {
    redirectUri,
    receive: <T>(handle: (url: URL) => Promise<T>, signal: AbortSignal) =>
      new Promise<T>((resolve, reject) => {
        const onAbort = () => {
          deliver = undefined;
          reject(signal.reason);
        };
        if (signal.aborted) return onAbort();
        signal.addEventListener("abort", onAbort, { once: true });
        deliver = async (url) => {
          signal.removeEventListener("abort", onAbort);
          try {
            resolve(await handle(url));
            return true;
          } catch (error) {
            reject(error);
            return false;
          }
        };
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The page the browser ends on; it says nothing of the response itself. */
function page(ok: boolean): string {
  const title = ok ? "Logged in" : "Login failed";
  const text = ok ? "You can close this page and return to your terminal." : "Your terminal says why.";
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>\n`;
}
