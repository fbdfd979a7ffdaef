/**
 * The package's in-process message bus, recording what is published and counting subscribers, so
 * tests can see what the manager announces and that waiting leaves no subscription behind.
 */
import { InProcessMessageBus } from "../../../src/stores/index.js";
import type { MessageBus } from "../../../src/stores/types.js";

export class RecordingMessageBus implements MessageBus {
  readonly published: { channel: string; message: string }[] = [];
  readonly #inner = new InProcessMessageBus();
  readonly #subscribers = new Map<string, number>();

  publish(channel: string, message: string): Promise<void> {
    this.published.push({ channel, message });
    return this.#inner.publish(channel, message);
  }

  async subscribe(channel: string, handler: (message: string) => void): Promise<() => Promise<void>> {
    const stop = await this.#inner.subscribe(channel, handler);
    this.#subscribers.set(channel, (this.#subscribers.get(channel) ?? 0) + 1);
    let stopped = false;
    return async () => {
      if (!stopped) this.#subscribers.set(channel, (this.#subscribers.get(channel) ?? 1) - 1);
      stopped = true;
      await stop();
    };
  }

  /** How many subscriptions are open on channels starting with `prefix`. */
  listeners(prefix = ""): number {
    return [...this.#subscribers].filter(([channel]) => channel.startsWith(prefix)).reduce((n, [, c]) => n + c, 0);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }
}
