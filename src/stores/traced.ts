/**
 * Stores and the bus with a span per call, whatever engine is behind them: each wrapper forwards
 * to the engine it wraps and names the call (`interaction_store.get`, `message_bus.publish`, ...).
 * A span is made only under an active span (`Tracing.call`), so a sweep makes no trace of its own.
 * Attributes name the store and the operation, never a key, a channel, a user or a value.
 */
import type { UserRef } from "../model/identity.js";
import type { InteractionStatus, NewInteraction, StoredCredential } from "../model/interaction.js";
import { ATTR } from "../tracing/names.js";
import type { Tracing } from "../tracing/tracing.js";
import type {
  CredentialVault,
  GrantStateStore,
  InteractionStore,
  KeyedLock,
  LockOptions,
  MessageBus,
  OpenInteractionsOptions,
  PendingGrant,
} from "./types.js";

function call<T>(tracing: Tracing, store: string, operation: string, run: () => Promise<T>, producer = false) {
  return tracing.call(`${store}.${operation}`, { [ATTR.store]: store, [ATTR.operation]: operation }, run, producer);
}

/** `store` with a span per call; `store` itself when tracing is off. */
export function tracedInteractionStore(store: InteractionStore, tracing: Tracing): InteractionStore {
  if (!tracing.on && tracing.settled) return store;
  const name = "interaction_store";
  return {
    create: (interaction: NewInteraction) => call(tracing, name, "create", () => store.create(interaction)),
    get: (id: string) => call(tracing, name, "get", () => store.get(id)),
    transition: (id: string, from: readonly InteractionStatus[], to: InteractionStatus) =>
      call(tracing, name, "transition", () => store.transition(id, from, to)),
    purgeExpired: (now?: number) => call(tracing, name, "purge_expired", () => store.purgeExpired(now)),
    ...(store.openFor === undefined
      ? {}
      : {
          openFor: (user: UserRef, options?: OpenInteractionsOptions) =>
            call(tracing, name, "open_for", () =>
              (store.openFor as NonNullable<InteractionStore["openFor"]>).call(store, user, options),
            ),
        }),
  };
}

/** `vault` with a span per call; `vault` itself when tracing is off. */
export function tracedVault(vault: CredentialVault, tracing: Tracing): CredentialVault {
  if (!tracing.on && tracing.settled) return vault;
  const name = "credential_vault";
  return {
    put: (user: UserRef, credential: StoredCredential) => call(tracing, name, "put", () => vault.put(user, credential)),
    get: (user: UserRef, provider: string) => call(tracing, name, "get", () => vault.get(user, provider)),
    delete: (user: UserRef, provider: string) => call(tracing, name, "delete", () => vault.delete(user, provider)),
    // Only what the vault has, so a caller still sees a vault that cannot list as one.
    ...(vault.list === undefined
      ? {}
      : { list: (user: UserRef) => call(tracing, name, "list", () => vault.list?.(user) ?? Promise.resolve([])) }),
    ...(vault.markUsed === undefined
      ? {}
      : {
          markUsed: (user: UserRef, provider: string, at: number) =>
            call(tracing, name, "mark_used", () => vault.markUsed?.(user, provider, at) ?? Promise.resolve()),
        }),
  };
}

/** `states` with a span per call; `states` itself when tracing is off. */
export function tracedGrantStates(states: GrantStateStore, tracing: Tracing): GrantStateStore {
  if (!tracing.on && tracing.settled) return states;
  const name = "grant_states";
  return {
    put: (state: string, grant: PendingGrant) => call(tracing, name, "put", () => states.put(state, grant)),
    take: (state: string) => call(tracing, name, "take", () => states.take(state)),
  };
}

/** `lock` with a span per `withLock` (the wait and the task); `lock` itself when tracing is off. */
export function tracedLock(lock: KeyedLock, tracing: Tracing): KeyedLock {
  if (!tracing.on && tracing.settled) return lock;
  return {
    withLock: <T>(key: string, options: LockOptions, task: () => Promise<T>) =>
      call(tracing, "keyed_lock", "with_lock", () => lock.withLock(key, options, task)),
  };
}

/** `bus` with a span per `publish` (subscriptions are long-lived and not spans); `bus` itself when tracing is off. */
export function tracedBus(bus: MessageBus, tracing: Tracing): MessageBus {
  if (!tracing.on && tracing.settled) return bus;
  return {
    publish: (channel: string, message: string) =>
      call(tracing, "message_bus", "publish", () => bus.publish(channel, message), true),
    subscribe: (channel: string, handler: (message: string) => void) => bus.subscribe(channel, handler),
    close: () => bus.close(),
  };
}
