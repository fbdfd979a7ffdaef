/**
 * The keyed store behind tools, resources and prompts. Every change after registration (enable,
 * disable, update, remove) is reported once through `changed`, which the server turns into a
 * `notifications/<kind>/list_changed` for its sessions.
 */
import { SdkError } from "../jsonrpc/errors.js";

/** Controls one registered tool, resource or prompt. Each call notifies connected sessions of the change. */
export interface RegisteredHandle<TChanges> {
  /** Whether the entry is listed and callable. */
  readonly enabled: boolean;
  /** Lists the entry again and serves it; sends `list_changed`. */
  enable(): void;
  /** Hides the entry: it is no longer listed and calls to it fail as for an unknown name; sends `list_changed`. */
  disable(): void;
  /** Replaces the given fields (others are kept); sends `list_changed`. */
  update(changes: TChanges): void;
  /** Forgets the entry for good; sends `list_changed`. */
  remove(): void;
}

interface Slot<E> {
  entry: E;
  enabled: boolean;
}

export class Registry<E> {
  readonly #slots = new Map<string, Slot<E>>();

  constructor(
    /** Used in error messages: "tool", "resource", "resource template", "prompt". */
    private readonly kind: string,
    private readonly changed: () => void,
  ) {}

  /** Number of entries, enabled or not. */
  get size(): number {
    return this.#slots.size;
  }

  /**
   * Adds an entry and returns its handle; `apply` merges the changes given to `update`.
   * @throws SdkError "INVALID_ARGUMENT" when the key is taken.
   */
  add<TChanges>(key: string, entry: E, apply: (entry: E, changes: TChanges) => E): RegisteredHandle<TChanges> {
    if (this.#slots.has(key))
      throw new SdkError("INVALID_ARGUMENT", `A ${this.kind} named ${key} is already registered`);
    const slot: Slot<E> = { entry, enabled: true };
    this.#slots.set(key, slot);
    this.changed();
    const live = () => {
      if (this.#slots.get(key) !== slot) throw new SdkError("INVALID_ARGUMENT", `The ${this.kind} ${key} was removed`);
    };
    const registry = this;
    return {
      get enabled() {
        return slot.enabled && registry.#slots.get(key) === slot;
      },
      enable: () => {
        live();
        slot.enabled = true;
        this.changed();
      },
      disable: () => {
        live();
        slot.enabled = false;
        this.changed();
      },
      update: (changes) => {
        live();
        slot.entry = apply(slot.entry, changes);
        this.changed();
      },
      remove: () => {
        if (this.#slots.get(key) !== slot) return;
        this.#slots.delete(key);
        this.changed();
      },
    };
  }

  /** The enabled entry under `key`. */
  get(key: string): E | undefined {
    const slot = this.#slots.get(key);
    return slot?.enabled ? slot.entry : undefined;
  }

  /** Enabled entries in registration order. */
  enabled(): E[] {
    return [...this.#slots.values()].filter((slot) => slot.enabled).map((slot) => slot.entry);
  }

  /** Every entry, enabled or not (capabilities are declared for what may be enabled later). */
  all(): E[] {
    return [...this.#slots.values()].map((slot) => slot.entry);
  }
}
