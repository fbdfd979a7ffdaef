/**
 * A small interaction store and message bus for these tests, enough to exercise the manager
 * through the `InteractionStore` and `MessageBus` contracts alone.
 */
import type { InteractionStatus, NewInteraction, UserInteraction } from "../../../src/interaction/model.js";
import { SdkError } from "../../../src/jsonrpc/errors.js";
import type { InteractionStore, MessageBus } from "../../../src/stores/types.js";

export class TestInteractionStore implements InteractionStore {
  readonly #items = new Map<string, UserInteraction>();
  constructor(private readonly now: () => number = Date.now) {}

  async create(interaction: NewInteraction): Promise<UserInteraction> {
    if (this.#items.has(interaction.id)) throw new SdkError("INVALID_ARGUMENT", "duplicate id");
    const created: UserInteraction = { ...structuredClone(interaction), status: "pending", createdAt: this.now() };
    this.#items.set(created.id, created);
    return this.#read(created);
  }

  async get(id: string): Promise<UserInteraction | undefined> {
    const item = this.#items.get(id);
    return item && this.#read(item);
  }

  async transition(id: string, from: readonly InteractionStatus[], to: InteractionStatus) {
    const item = this.#items.get(id);
    if (item === undefined || !from.includes(item.status)) return undefined;
    if (to !== "expired" && this.now() >= item.expiresAt) return undefined;
    item.status = to;
    return this.#read(item);
  }

  async purgeExpired(now = this.now()): Promise<number> {
    const expired = [...this.#items.values()].filter((item) => now >= item.expiresAt);
    for (const item of expired) this.#items.delete(item.id);
    return expired.length;
  }

  #read(item: UserInteraction): UserInteraction {
    const copy = structuredClone(item);
    if (copy.status !== "completed" && this.now() >= copy.expiresAt) copy.status = "expired";
    return copy;
  }
}

export class TestMessageBus implements MessageBus {
  readonly published: { channel: string; message: string }[] = [];
  readonly #handlers = new Map<string, Set<(message: string) => void>>();

  async publish(channel: string, message: string): Promise<void> {
    this.published.push({ channel, message });
    for (const handler of [...(this.#handlers.get(channel) ?? [])]) handler(message);
  }

  async subscribe(channel: string, handler: (message: string) => void): Promise<() => Promise<void>> {
    const set = this.#handlers.get(channel) ?? new Set();
    this.#handlers.set(channel, set);
    const own = (message: string) => handler(message);
    set.add(own);
    return async () => {
      set.delete(own);
    };
  }

  /** How many handlers listen on channels starting with `prefix`. */
  listeners(prefix = ""): number {
    return [...this.#handlers].filter(([c]) => c.startsWith(prefix)).reduce((n, [, set]) => n + set.size, 0);
  }

  async close(): Promise<void> {
    this.#handlers.clear();
  }
}
