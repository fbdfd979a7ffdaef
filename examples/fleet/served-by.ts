/**
 * Who served what behind HAProxy: a `fetch` for the MCP client and a scripted browser that record
 * the `X-Served-By` of every response from the load balancer, and can send the next requests to
 * a chosen instance (`X-Fleet-Pin`, which HAProxy honours while that instance is up); without a
 * pin, HAProxy's round robin chooses.
 */
import { createParser } from "eventsource-parser";
import { Browser, type RequestInit } from "../demo/full/browser.js";
import { hopLine } from "../demo/full/narrated-browser.js";
import { PIN, SERVED_BY } from "./haproxy.js";

/** One response from the load balancer. */
export interface Served {
  method: string;
  /** The JSON-RPC method of a POST's (first) message, if it has one. */
  rpc: string | undefined;
  status: number;
  /** The instance's name, from `X-Served-By`. */
  servedBy: string;
  /** The request's `Mcp-Session-Id`, if it sent one. */
  sessionId: string | null;
  /** The request's `Last-Event-ID`, if it sent one. */
  lastEventId: string | null;
  /** A GET stream's events so far, as the client read them (`id` and the JSON-RPC `method` of `data`). */
  events: { id: string | undefined; method: string | undefined }[];
}

/** The MCP client's side: `fetch` pins requests by HTTP method and records every response. */
export class ClientTrace {
  readonly served: Served[] = [];
  /** Instance to send POSTs (or GETs, DELETEs) to, while it is up; none: round robin. */
  readonly pins = new Map<string, string>();
  /** Called with each response as it arrives (a GET's `events` fill in afterwards). */
  onserved: (served: Served) => void = () => {};

  readonly fetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const pin = this.pins.get(request.method);
    if (pin !== undefined) request.headers.set(PIN, pin);
    let rpc: string | undefined;
    if (request.method === "POST") {
      try {
        const body = JSON.parse(await request.clone().text()) as { method?: string } | { method?: string }[];
        rpc = Array.isArray(body) ? body[0]?.method : body.method;
      } catch {
        rpc = undefined;
      }
    }
    let response = await fetch(request);
    const events: Served["events"] = [];
    if (request.method === "GET" && response.body !== null) {
      const [mine, theirs] = response.body.tee();
      void record(mine, events);
      response = new Response(theirs, response);
    }
    const served: Served = {
      method: request.method,
      rpc,
      status: response.status,
      servedBy: response.headers.get(SERVED_BY) ?? "?",
      sessionId: request.headers.get("mcp-session-id"),
      lastEventId: request.headers.get("last-event-id"),
      events,
    };
    this.served.push(served);
    this.onserved(served);
    return response;
  };

  /** The responses to `method` requests (and JSON-RPC `rpc`, if given), in order. */
  of(method: string, rpc?: string): Served[] {
    return this.served.filter((s) => s.method === method && (rpc === undefined || s.rpc === rpc));
  }
}

/** Reads an SSE body into `events` until it ends or breaks. */
async function record(body: ReadableStream<Uint8Array>, events: Served["events"]): Promise<void> {
  const parser = createParser({
    onEvent: (event) => {
      let method: string | undefined;
      try {
        method = (JSON.parse(event.data) as { method?: string }).method;
      } catch {
        method = undefined;
      }
      events.push({ id: event.id, method });
    },
  });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      parser.feed(decoder.decode(read.value, { stream: true }));
    }
  } catch {
    // The stream broke (its instance was killed): what arrived before is recorded.
  }
}

/** A browser step at the load balancer: path and the instance that served it. */
export interface BrowserStep {
  method: string;
  path: string;
  status: number;
  servedBy: string;
}

/**
 * The scripted browser of the full demo, sending its requests to the load balancer's `host` to
 * the instance `pin` (when set) and recording who served each; `say` narrates every request.
 */
export class FleetBrowser extends Browser {
  pin: string | undefined;
  readonly steps: BrowserStep[] = [];

  constructor(
    private readonly host: string,
    private readonly labels: ReadonlyMap<string, string>,
    private readonly say: (line: string) => void = () => {},
  ) {
    super();
  }

  override async request(url: string, init: RequestInit = {}) {
    const target = new URL(url);
    const atBalancer = target.host === this.host;
    const headers = { ...init.headers, ...(atBalancer && this.pin !== undefined ? { [PIN]: this.pin } : {}) };
    const response = await super.request(url, { ...init, headers });
    const method = init.method ?? (init.form ? "POST" : "GET");
    const servedBy = response.headers.get(SERVED_BY) ?? "?";
    if (atBalancer) this.steps.push({ method, path: target.pathname, status: response.status, servedBy });
    this.say(`${hopLine(this.labels, method, url, response.status)}${atBalancer ? `  [instance ${servedBy}]` : ""}`);
    return response;
  }
}
