/**
 * The Node.js path of the Streamable HTTP client: requests through `node:http` / `node:https`
 * with one keep-alive agent per protocol for every transport of the process (as `fetch` shares
 * its dispatcher), answers read from the `IncomingMessage` as it comes. No web streams, no
 * `Headers` objects, no `AbortController` per request. The modules are imported on the first
 * request, so that loading the package needs no Node built-in.
 */
import type { Agent, ClientRequest, IncomingMessage } from "node:http";
import type { HttpAnswer, HttpCarrier, HttpExchange, HttpRequest } from "./client-http.js";
import { MAX_REDIRECTS, redirectRequest, tooManyRedirects } from "./client-redirect.js";
import { endInSlices, SLICE_LENGTH } from "./node-slices.js";

interface NodeHttp {
  http: typeof import("node:http");
  https: typeof import("node:https");
  StringDecoder: typeof import("node:string_decoder").StringDecoder;
  agents: { http: Agent; https: Agent };
}

let loaded: NodeHttp | undefined;
let loading: Promise<NodeHttp> | undefined;

function load(): Promise<NodeHttp> {
  loading ??= Promise.all([import("node:http"), import("node:https"), import("node:string_decoder")]).then(
    ([http, https, { StringDecoder }]) => {
      loaded = {
        http,
        https,
        StringDecoder,
        agents: { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) },
      };
      return loaded;
    },
  );
  return loading;
}

/**
 * Errors of a kept-alive connection the server closed as the request went out on it (the
 * request never reached the server): such a request is sent once more on a new connection.
 */
const STALE_CONNECTION_CODES: ReadonlySet<string> = new Set(["ECONNRESET", "EPIPE", "ECONNABORTED"]);

/** The bytes of a line feed and a carriage return, which end an SSE line. */
const LF = 0x0a;
const CR = 0x0d;

/**
 * Bytes of a line decoded chunk by chunk before the rest of it is held (see `readText`): the
 * pieces of a line this long die young, where those of tens of MiBs would be copied and promoted
 * by V8's collector; the bytes past it are joined and decoded once, at the line's end.
 */
const DECODED_AHEAD_BYTES = 4 * 1024 * 1024;

/** A body at most this long, fully announced, is drained when given up, so its connection is kept. */
const DRAIN_BYTES = 64 * 1024;

export function nodeCarrier(): HttpCarrier {
  return { path: "node", send };
}

function send(request: HttpRequest): HttpExchange {
  const exchange = new NodeExchange(request);
  if (loaded !== undefined) exchange.start(loaded, true);
  else load().then((node) => exchange.start(node, true), exchange.fail);
  return exchange;
}

class NodeExchange implements HttpExchange {
  readonly answer: Promise<HttpAnswer>;
  private resolve!: (answer: HttpAnswer) => void;
  private reject!: (error: unknown) => void;
  private req: ClientRequest | undefined;
  private res: IncomingMessage | undefined;
  private aborted = false;
  private redirects = 0;

  constructor(private request: HttpRequest) {
    this.answer = new Promise<HttpAnswer>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  readonly fail = (error: unknown): void => this.reject(error);

  start(node: NodeHttp, mayRetry: boolean): void {
    if (this.aborted) {
      this.reject(abortError());
      return;
    }
    const { url, method, body } = this.request;
    const secure = url.protocol === "https:";
    // Node writes `Content-Length` itself for a body given whole to `end()`, from the one UTF-8
    // count it makes anyway; counting here too cost a second pass over the body. A body written
    // in slices is counted here, once.
    let headers = this.request.headers;
    if (body !== undefined && body.length > SLICE_LENGTH) {
      headers = { ...headers, "content-length": String(Buffer.byteLength(body)) };
    } else if (body !== undefined && "content-length" in headers) {
      headers = { ...headers };
      delete headers["content-length"];
    }
    let req: ClientRequest;
    try {
      req = (secure ? node.https : node.http).request({
        protocol: url.protocol,
        // An IPv6 literal is bracketed in a URL, not in a host name.
        hostname: url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname,
        port: url.port === "" ? undefined : url.port,
        path: `${url.pathname}${url.search}`,
        method,
        headers,
        agent: secure ? node.agents.https : node.agents.http,
      });
    } catch (error) {
      // A header value Node refuses (a control character), or a protocol it does not speak.
      this.reject(error);
      return;
    }
    this.req = req;
    req.once("response", (res) => {
      let next: HttpRequest | undefined;
      try {
        next = redirectRequest(this.request, res.statusCode ?? 0, res.headers.location ?? null);
      } catch (error) {
        res.resume();
        this.reject(error);
        return;
      }
      if (next !== undefined) {
        res.resume();
        if (++this.redirects > MAX_REDIRECTS) {
          this.reject(tooManyRedirects());
          return;
        }
        this.request = next;
        this.start(node, true);
        return;
      }
      this.res = res;
      this.resolve(new NodeAnswer(res, node.StringDecoder));
    });
    req.on("error", (error: NodeJS.ErrnoException) => {
      // Once the answer came, a broken connection is the answer body's to report.
      if (this.res !== undefined || this.req !== req) return;
      if (mayRetry && req.reusedSocket && !this.aborted && STALE_CONNECTION_CODES.has(error.code ?? "")) {
        this.start(node, false);
        return;
      }
      this.reject(this.aborted ? abortError() : error);
    });
    if (body === undefined) req.end();
    else endInSlices(req, body);
  }

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    if (this.res !== undefined) {
      if (!this.res.complete) this.res.destroy();
    } else this.req?.destroy();
  }
}

class NodeAnswer implements HttpAnswer {
  private cancelled = false;

  constructor(
    private readonly res: IncomingMessage,
    private readonly Decoder: NodeHttp["StringDecoder"],
  ) {}

  get status(): number {
    return this.res.statusCode ?? 0;
  }

  get statusText(): string {
    return this.res.statusMessage ?? "";
  }

  header(name: string): string | null {
    const value = this.res.headers[name];
    if (value === undefined) return null;
    return typeof value === "string" ? value : value.join(", ");
  }

  read(onChunk: (chunk: Uint8Array) => void): Promise<void> {
    return this.consume("data", onChunk);
  }

  readText(onText: (text: string, bytes: number) => void, holdBytes = 0): Promise<void> {
    // Node's string decoder keeps a character cut between chunks for the next one.
    const decoder = new this.Decoder("utf8");
    if (holdBytes <= 0) return this.consume("data", (chunk: Buffer) => onText(decoder.write(chunk), chunk.byteLength));
    let held: Buffer[] = [];
    let heldBytes = 0;
    // Bytes of the line not ended yet, decoded or held.
    let lineBytes = 0;
    const flush = (): void => {
      const joined = held.length === 1 ? (held[0] as Buffer) : Buffer.concat(held, heldBytes);
      held = [];
      heldBytes = 0;
      onText(decoder.write(joined), joined.byteLength);
    };
    const read = this.consume("data", (chunk: Buffer) => {
      const lastBreak = Math.max(chunk.lastIndexOf(LF), chunk.lastIndexOf(CR));
      lineBytes = lastBreak === -1 ? lineBytes + chunk.byteLength : chunk.byteLength - lastBreak - 1;
      // The line as a whole (decoded ahead and held) stays within holdBytes: past it, chunks go on
      // one by one, so a limit is seen at once and the rest of a line being skipped is not held.
      const holds = lastBreak === -1 && lineBytes > DECODED_AHEAD_BYTES && lineBytes <= holdBytes;
      if (!holds && held.length === 0) {
        onText(decoder.write(chunk), chunk.byteLength);
        return;
      }
      held.push(chunk);
      heldBytes += chunk.byteLength;
      if (!holds) flush();
    });
    return read.then(() => {
      if (held.length > 0 && !this.cancelled) flush();
    });
  }

  async cancel(): Promise<void> {
    if (this.cancelled) return;
    this.cancelled = true;
    const res = this.res;
    if (res.readableEnded || res.destroyed) return;
    const declared = Number(res.headers["content-length"] ?? Number.NaN);
    if (res.complete || declared <= DRAIN_BYTES) res.resume();
    else res.destroy();
  }

  private consume<T>(event: "data", onData: (data: T) => void): Promise<void> {
    const res = this.res;
    return new Promise<void>((resolve, reject) => {
      if (this.cancelled || res.readableEnded) {
        resolve();
        return;
      }
      res.on(event, (data: T) => {
        // After a cancel that drains the body, what is left goes nowhere.
        if (!this.cancelled) onData(data);
      });
      res.once("end", resolve);
      res.once("error", (error) => (this.cancelled ? resolve() : reject(error)));
      res.once("close", () => {
        if (this.cancelled || res.complete) resolve();
        else reject(new Error("terminated: the connection closed before the answer ended"));
      });
    });
  }
}

function abortError(): Error {
  const error = new Error("This operation was aborted");
  error.name = "AbortError";
  return error;
}
