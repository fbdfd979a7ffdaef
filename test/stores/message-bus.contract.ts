/**
 * What every `MessageBus` promises, run against each implementation. Delivery may be
 * asynchronous, so absence is proven by a later message on the same channel arriving first.
 */
import { describe, expect, it, onTestFinished } from "vitest";
import { SdkError } from "../../src/jsonrpc/errors.js";
import type { MessageBus } from "../../src/stores/index.js";

/** Opens a bus that reports failed handlers to `onerror`. */
export type OpenMessageBus = (onerror: (error: unknown, channel: string) => void) => MessageBus | Promise<MessageBus>;

/** Collects what one handler receives and lets a test wait for it. */
class Received {
  readonly messages: string[] = [];
  #waiters: (() => void)[] = [];
  readonly handler = (message: string): void => {
    this.messages.push(message);
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  };

  async until(message: string): Promise<void> {
    while (!this.messages.includes(message)) await new Promise<void>((resolve) => this.#waiters.push(resolve));
  }
}

export function runMessageBusContract(name: string, open: OpenMessageBus): void {
  async function setup() {
    const failures: [unknown, string][] = [];
    const bus = await open((error, channel) => failures.push([error, channel]));
    onTestFinished(() => bus.close());
    return { bus, failures };
  }

  describe(`${name} message bus`, () => {
    it("delivers each message, in order, to every subscriber of its channel", async () => {
      const { bus } = await setup();
      const [first, second] = [new Received(), new Received()];
      await bus.subscribe("interaction:1", first.handler);
      await bus.subscribe("interaction:1", second.handler);
      await bus.publish("interaction:1", "accepted");
      await bus.publish("interaction:1", "completed");
      await Promise.all([first.until("completed"), second.until("completed")]);
      expect(first.messages).toEqual(["accepted", "completed"]);
      expect(second.messages).toEqual(["accepted", "completed"]);
    });

    it("delivers nothing from other channels", async () => {
      const { bus } = await setup();
      const a = new Received();
      await bus.subscribe("a", a.handler);
      await bus.publish("b", "for b");
      await bus.publish("ab", "for ab");
      await bus.publish("a", "for a");
      await a.until("for a");
      expect(a.messages).toEqual(["for a"]);
    });

    it("stops delivering to a subscription once unsubscribed, and only to that one", async () => {
      const { bus } = await setup();
      const [leaving, staying] = [new Received(), new Received()];
      const unsubscribe = await bus.subscribe("c", leaving.handler);
      await bus.subscribe("c", staying.handler);
      await bus.publish("c", "one");
      await leaving.until("one");
      await unsubscribe();
      await unsubscribe();
      await bus.publish("c", "two");
      await staying.until("two");
      expect(leaving.messages).toEqual(["one"]);
      expect(staying.messages).toEqual(["one", "two"]);
    });

    it("delivers twice to a handler subscribed twice, until each subscription ends", async () => {
      const { bus } = await setup();
      const twice = new Received();
      const marker = new Received();
      const unsubscribeFirst = await bus.subscribe("d", twice.handler);
      await bus.subscribe("d", twice.handler);
      await bus.subscribe("d", marker.handler);
      await bus.publish("d", "x");
      await marker.until("x");
      await unsubscribeFirst();
      await bus.publish("d", "y");
      await marker.until("y");
      expect(twice.messages).toEqual(["x", "x", "y"]);
    });

    it("keeps delivering when a handler throws or rejects, and reports the failure", async () => {
      const { bus, failures } = await setup();
      const after = new Received();
      const broken = new Error("handler bug");
      await bus.subscribe("e", () => {
        throw broken;
      });
      await bus.subscribe("e", async () => {
        throw broken;
      });
      await bus.subscribe("e", after.handler);
      await expect(bus.publish("e", "still here")).resolves.toBeUndefined();
      await after.until("still here");
      await new Promise((resolve) => setImmediate(resolve));
      expect(failures).toEqual([
        [broken, "e"],
        [broken, "e"],
      ]);
    });

    it("refuses to publish or subscribe once closed", async () => {
      const { bus } = await setup();
      const received = new Received();
      await bus.subscribe("f", received.handler);
      await bus.close();
      await expect(bus.publish("f", "late")).rejects.toBeInstanceOf(SdkError);
      await expect(bus.subscribe("f", received.handler)).rejects.toMatchObject({ code: "CONNECTION_CLOSED" });
      expect(received.messages).toEqual([]);
    });
  });
}
