/**
 * A raw stdio peer for bad-input tests: writes whatever bytes a test gives it to the server's
 * stdin and collects every line the server writes to stdout, parsed.
 */
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import type { JsonRpcMessage, RequestId } from "../../src/jsonrpc/messages.js";

type Received = JsonRpcMessage & { id?: RequestId | null; result?: Record<string, unknown>; error?: ErrorBody };

export interface ErrorBody {
  code: number;
  message: string;
  data?: unknown;
}

export class LinePeer {
  /** Every message the server wrote, in order. */
  readonly received: Received[] = [];
  readonly #waiters = new Set<() => void>();

  constructor(
    private readonly stdin: Writable,
    stdout: Readable,
  ) {
    createInterface({ input: stdout, crlfDelay: Number.POSITIVE_INFINITY }).on("line", (line) => {
      this.received.push(JSON.parse(line) as Received);
      for (const wake of [...this.#waiters]) wake();
    });
  }

  /** Writes a message as one line, or raw text / bytes exactly as given. */
  write(message: JsonRpcMessage | string | Uint8Array): void {
    this.stdin.write(
      typeof message === "string" || message instanceof Uint8Array ? message : `${JSON.stringify(message)}\n`,
    );
  }

  /** The first message (from `from` on) that `match` accepts; waits for it if needed. */
  async next(match: (message: Received) => boolean, from = 0): Promise<Received> {
    for (;;) {
      const found = this.received.slice(from).find(match);
      if (found !== undefined) return found;
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.#waiters.delete(wake);
          resolve();
        };
        this.#waiters.add(wake);
      });
    }
  }

  /** The response with this id. */
  response(id: RequestId | null, from = 0): Promise<Received> {
    return this.next((m) => "id" in m && !("method" in m) && m.id === id, from);
  }

  /** The messages with this id (responses and requests alike). */
  withId(id: RequestId): Received[] {
    return this.received.filter((m) => "id" in m && m.id === id);
  }
}
