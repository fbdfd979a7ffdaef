/**
 * What every transport promises, run against each implementation: messages arrive in order
 * and as copies, closing either end closes both once, and a closed end refuses to send.
 */
import { describe, expect, it } from "vitest";
import { SdkError } from "../../src/jsonrpc/errors.js";
import type { JsonRpcMessage } from "../../src/jsonrpc/messages.js";
import type { Transport } from "../../src/jsonrpc/transport.js";

export type MakePair = () => [Transport, Transport] | Promise<[Transport, Transport]>;

/** Records what a transport delivers and lets a test wait for the next deliveries. */
export class Inbox {
  readonly messages: (JsonRpcMessage | JsonRpcMessage[])[] = [];
  readonly errors: Error[] = [];
  closes = 0;
  #waiters: (() => void)[] = [];

  constructor(transport: Transport) {
    transport.onmessage = (message) => {
      this.messages.push(message);
      this.#wake();
    };
    transport.onerror = (error) => {
      this.errors.push(error);
      this.#wake();
    };
    transport.onclose = () => {
      this.closes += 1;
      this.#wake();
    };
  }

  /** Resolves once `test` holds, re-checking after every delivery, error or close. */
  async until(test: (inbox: this) => boolean): Promise<void> {
    while (!test(this)) {
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  async take(count: number): Promise<(JsonRpcMessage | JsonRpcMessage[])[]> {
    await this.until((inbox) => inbox.messages.length >= count);
    return this.messages.slice(0, count);
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }
}

const request = (id: string | number, params: Record<string, unknown> = {}): JsonRpcMessage => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params,
});

export function runTransportContract(name: string, makePair: MakePair): void {
  describe(`${name} transport contract`, () => {
    async function connected() {
      const [a, b] = await makePair();
      const inboxA = new Inbox(a);
      const inboxB = new Inbox(b);
      await a.start();
      await b.start();
      return { a, b, inboxA, inboxB };
    }

    it("delivers messages both ways, in the order they were sent", async () => {
      const { a, b, inboxA, inboxB } = await connected();
      for (let i = 0; i < 50; i++) await a.send(request(i));
      await b.send({ jsonrpc: "2.0", id: 7, result: { ok: true } });
      expect(await inboxB.take(50)).toEqual(Array.from({ length: 50 }, (_, i) => request(i)));
      expect(await inboxA.take(1)).toEqual([{ jsonrpc: "2.0", id: 7, result: { ok: true } }]);
      await a.close();
    });

    it("keeps ids 0 and the empty string, notifications and error responses intact", async () => {
      const { a, inboxB } = await connected();
      const sent: JsonRpcMessage[] = [
        request(0),
        request(""),
        { jsonrpc: "2.0", method: "notifications/initialized" },
        { jsonrpc: "2.0", id: 3, error: { code: -32601, message: "Method not found", data: { method: "x" } } },
      ];
      for (const message of sent) await a.send(message);
      expect(await inboxB.take(sent.length)).toEqual(sent);
      await a.close();
    });

    it("carries any Unicode text unchanged", async () => {
      const { a, inboxB } = await connected();
      const text = 'héllo 世界 👩‍💻 \u2028 \n "quoted" \\ \u0000';
      await a.send(request(1, { text }));
      const [received] = await inboxB.take(1);
      expect(received).toEqual(request(1, { text }));
      await a.close();
    });

    it("hands the receiver its own copy of each message", async () => {
      const { a, inboxB } = await connected();
      const params = { list: [1, 2, 3] };
      const sent = request(1, params);
      await a.send(sent);
      params.list.push(4);
      const [received] = await inboxB.take(1);
      expect(received).toEqual(request(1, { list: [1, 2, 3] }));
      expect(received).not.toBe(sent);
      await a.close();
    });

    it("reports a throwing message handler through onerror and keeps delivering", async () => {
      const { a, b, inboxB } = await connected();
      const handle = b.onmessage;
      let thrown = false;
      b.onmessage = (message) => {
        if (!thrown) {
          thrown = true;
          throw new Error("handler failed");
        }
        handle?.(message);
      };
      await a.send(request(1));
      await a.send(request(2));
      expect(await inboxB.take(1)).toEqual([request(2)]);
      expect(inboxB.errors.map((error) => error.message)).toEqual(["handler failed"]);
      await a.close();
    });

    for (const closer of ["first", "second"] as const) {
      it(`closing the ${closer} end closes both, onclose once on each`, async () => {
        const { a, b, inboxA, inboxB } = await connected();
        const end = closer === "first" ? a : b;
        await end.close();
        await end.close();
        await inboxA.until((inbox) => inbox.closes > 0);
        await inboxB.until((inbox) => inbox.closes > 0);
        await a.close();
        await b.close();
        await new Promise((resolve) => setImmediate(resolve));
        expect([inboxA.closes, inboxB.closes]).toEqual([1, 1]);
      });
    }

    it("delivers what was sent before close", async () => {
      const { a, inboxB } = await connected();
      await a.send(request(1));
      await a.close();
      await inboxB.until((inbox) => inbox.closes > 0);
      expect(inboxB.messages).toEqual([request(1)]);
    });

    it("refuses to send after close with CONNECTION_CLOSED, on both ends", async () => {
      const { a, b, inboxB } = await connected();
      await a.close();
      await inboxB.until((inbox) => inbox.closes > 0);
      for (const end of [a, b]) {
        const error = await end.send(request(1)).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(SdkError);
        expect((error as SdkError).code).toBe("CONNECTION_CLOSED");
      }
    });

    it("refuses a second start", async () => {
      const { a } = await connected();
      await expect(a.start()).rejects.toMatchObject({ code: "ALREADY_CONNECTED" });
      await a.close();
    });
  });
}
