/**
 * The outbound requests of a session that wait for their responses, by id.
 *
 * Numeric ids count up from 0, so those in flight at one time fall into distinct slots of a
 * small array (the id modulo its length) that lives as long as the session: adding and removing a
 * request writes one slot and allocates nothing. A `Map` would instead build a new table whenever
 * it grows or shrinks, and a discarded table that reached the old generation keeps every request
 * it listed (and all they hold) alive until the next full collection. A request whose slot is
 * still taken by an older one (a long wait), and every string id, goes to a `Map`.
 */
import type { RequestId } from "./messages.js";

/** Slots at first; doubled while requests collide, up to `MAX_SLOTS`. */
const FIRST_SLOTS = 16;
const MAX_SLOTS = 4096;

export class PendingTable<T extends { readonly id: RequestId }> {
  #slots: (T | undefined)[] = new Array<T | undefined>(FIRST_SLOTS).fill(undefined);
  #others: Map<RequestId, T> | undefined;
  #size = 0;

  /** How many requests wait. */
  get size(): number {
    return this.#size;
  }

  get(id: RequestId): T | undefined {
    if (typeof id === "number") {
      const held = this.#slots[id & (this.#slots.length - 1)];
      if (held !== undefined && held.id === id) return held;
    }
    return this.#others?.get(id);
  }

  /** Adds a request under its own `id`, which no waiting request has. */
  add(entry: T): void {
    this.#size++;
    const { id } = entry;
    if (typeof id !== "number") {
      this.#others ??= new Map();
      this.#others.set(id, entry);
      return;
    }
    let index = id & (this.#slots.length - 1);
    if (this.#slots[index] !== undefined && this.#slots.length < MAX_SLOTS && this.#size > this.#slots.length / 2) {
      this.#grow();
      index = id & (this.#slots.length - 1);
    }
    const held = this.#slots[index];
    if (held !== undefined) {
      this.#others ??= new Map();
      this.#others.set(held.id, held);
    }
    this.#slots[index] = entry;
  }

  /** Removes the request waiting under `id`; returns it, or `undefined` when none waits. */
  take(id: RequestId): T | undefined {
    if (typeof id === "number") {
      const index = id & (this.#slots.length - 1);
      const held = this.#slots[index];
      if (held !== undefined && held.id === id) {
        this.#slots[index] = undefined;
        this.#size--;
        return held;
      }
    }
    const other = this.#others?.get(id);
    if (other === undefined) return undefined;
    this.#others?.delete(id);
    this.#size--;
    return other;
  }

  /** The ids of the waiting requests, oldest first (numbers in order, then strings as added). */
  ids(): RequestId[] {
    const numbers: number[] = [];
    const strings: RequestId[] = [];
    for (const entry of this.#slots) if (entry !== undefined) numbers.push(entry.id as number);
    for (const id of this.#others?.keys() ?? []) {
      if (typeof id === "number") numbers.push(id);
      else strings.push(id);
    }
    numbers.sort((a, b) => a - b);
    return [...numbers, ...strings];
  }

  #grow(): void {
    const old = this.#slots;
    this.#slots = new Array<T | undefined>(old.length * 2).fill(undefined);
    for (const entry of old) {
      if (entry === undefined) continue;
      const index = (entry.id as number) & (this.#slots.length - 1);
      const held = this.#slots[index];
      if (held === undefined) {
        this.#slots[index] = entry;
      } else {
        this.#others ??= new Map();
        this.#others.set(entry.id, entry);
      }
    }
  }
}
