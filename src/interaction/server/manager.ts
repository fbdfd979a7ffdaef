/**
 * `InteractionManager`: creates hand-offs for a verified user and an MCP session, lets only that
 * user complete them before their deadline, and tells the owning session through the message
 * bus, so completion reaches it on whichever server instance holds it.
 */
import { randomBytes } from "node:crypto";
import { SdkError } from "../../jsonrpc/errors.js";
import type { AuthInfo, UserRef } from "../../model/identity.js";
import { sameUser, userOf } from "../../model/identity.js";
import type { InteractionStatus, UserInteraction } from "../../model/interaction.js";
import { messageContainsUrl } from "../../revisions/index.js";
import type { InteractionAction, InteractionInput, InteractionService } from "../../server/index.js";
import { auditTo, cleanClientName } from "../../stores/audit.js";
import { tracedBus, tracedInteractionStore } from "../../stores/traced.js";
import type {
  AuditEntry,
  AuditLog,
  InteractionStore,
  MessageBus,
  OpenInteractionsOptions,
} from "../../stores/types.js";
import { ATTR, STEP, Tracing, type TracingOption } from "../../tracing/index.js";
import { interactionRecord } from "./audit-records.js";
import { readChange, writeChange } from "./changes.js";
import { InteractionError } from "./errors.js";
import { waitForSettled } from "./wait.js";

export interface InteractionManagerOptions {
  store: InteractionStore;
  /** Carries "interaction X changed" to the instance that holds the session. */
  bus: MessageBus;
  /** The clock, ms since the epoch; default `Date.now`. Give the store the same one. */
  now?: () => number;
  /** ms an interaction stays open; default 600,000 (10 minutes). */
  ttlMs?: number;
  /**
   * UNSAFE on any server reachable by more than one person. The user every request *without*
   * authorization is taken to be, e.g. `{ issuer: "local", subject: os.userInfo().username }` for
   * a stdio server that only the person at this machine can start. On a remote server without
   * MCP authorization anyone would be this user and could complete anyone's hand-off: leave it
   * unset there, so unauthenticated requests cannot start one. Requests that carry authorization
   * never use it.
   */
  unsafeLocalUser?: UserRef;
  /** Prefix of the bus channels (one per MCP session); default `mcp-handoff:interactions:`. */
  channelPrefix?: string;
  /**
   * ms between sweeps that remove expired interactions from the store (`purgeExpired`), on one
   * unref'd timer that never keeps the process alive; `close()` stops it. Default 60,000; `0`
   * turns sweeping off, for an application that purges the store itself.
   */
  sweepIntervalMs?: number;
  /**
   * ms an interaction is kept after its deadline before a sweep removes it, so that a late retry
   * still reads it as expired rather than unknown; default 600,000 (10 minutes).
   */
  keepExpiredMs?: number;
  /**
   * Told when the store fails where no caller hears of it: a sweep (the next one tries again), or
   * withdrawing a claim whose `commit` failed. Default `console.error`.
   */
  onerror?: (error: unknown) => void;
  /**
   * OpenTelemetry tracing (`docs/tracing.md`): spans for creating and completing interactions and
   * for each call to the store and the bus, and the trace context of the creating request kept
   * with each interaction (`traceparent`), so the pages and the retry continue its trace on any
   * instance. Default: the global tracer provider when `@opentelemetry/api` is installed, else
   * none; `false`: none. With `true` or `{ tracer }` and the API missing, `create` and `complete`
   * reject with SdkError "DEPENDENCY_MISSING".
   */
  tracing?: TracingOption;
  /**
   * Where each step of a hand-off is recorded (`docs/audit.md`): `handoff.created`,
   * `handoff.completed` (or `failed` when `commit` threw), `handoff.declined` (on the page or in
   * the client) and `handoff.expired` (once, when a read first finds it past its deadline), each
   * with the user, the session, the interaction id and the client's name. A log that fails goes to
   * `onerror`; the step goes on.
   */
  audit?: AuditLog;
}

/** Written in an interaction's `url`, replaced by its id: the id is only known once it is created. */
export const INTERACTION_ID_IN_URL = "{interactionId}";

const ANSWERED: Readonly<Record<InteractionAction, InteractionStatus>> = {
  accept: "accepted",
  decline: "declined",
  cancel: "cancelled",
};

function notFound(): InteractionError {
  return new InteractionError("NOT_FOUND", "No such interaction");
}

/** The provider an interaction's purpose names (`{ provider: "github" }`), for a span; never any other part of it. */
function providerOf(purpose: Record<string, unknown> | undefined): string | undefined {
  const provider = purpose?.provider;
  return typeof provider === "string" && provider.length <= 64 ? provider : undefined;
}

export class InteractionManager implements InteractionService {
  readonly #store: InteractionStore;
  readonly #bus: MessageBus;
  readonly #now: () => number;
  readonly #ttlMs: number;
  readonly #localUser: UserRef | undefined;
  readonly #prefix: string;
  readonly #sweepTimer: ReturnType<typeof setInterval> | undefined;
  #sweeping: Promise<void> | undefined;
  readonly #onerror: (error: unknown) => void;
  /** What tells a session's client here that its interaction is done (`deliverCompletionsWith`). */
  readonly #deliverers = new Set<(interaction: UserInteraction) => Promise<boolean>>();
  readonly #tracing: Tracing;
  readonly #audit: ((entry: AuditEntry) => Promise<void>) | undefined;

  /** @throws RangeError when `sweepIntervalMs` or `keepExpiredMs` is negative or not a number. */
  constructor(options: InteractionManagerOptions) {
    this.#tracing = Tracing.from(options.tracing);
    this.#store = tracedInteractionStore(options.store, this.#tracing);
    this.#bus = tracedBus(options.bus, this.#tracing);
    this.#now = options.now ?? Date.now;
    this.#ttlMs = options.ttlMs ?? 600_000;
    this.#localUser = options.unsafeLocalUser;
    this.#prefix = options.channelPrefix ?? "mcp-handoff:interactions:";
    const interval = options.sweepIntervalMs ?? 60_000;
    const keep = options.keepExpiredMs ?? 600_000;
    if (!(interval >= 0) || !(keep >= 0)) throw new RangeError("sweepIntervalMs and keepExpiredMs must be ms >= 0");
    const onerror = options.onerror ?? ((error) => console.error("InteractionManager: the store failed:", error));
    this.#onerror = onerror;
    const toOnerror = (fields: object) => onerror((fields as { err?: unknown }).err);
    const ignore = () => {};
    this.#audit =
      options.audit === undefined
        ? undefined
        : auditTo(options.audit, { error: toOnerror, warn: ignore, info: ignore, debug: ignore });
    if (interval > 0) {
      this.#sweepTimer = setInterval(() => {
        // One sweep at a time: a slow store is not asked again before it answered.
        this.#sweeping ??= this.#store
          .purgeExpired(this.#now() - keep)
          .then(
            () => undefined,
            (error: unknown) => onerror(error),
          )
          .finally(() => {
            this.#sweeping = undefined;
          });
      }, interval);
      this.#sweepTimer.unref?.();
    }
  }

  /**
   * Stops the sweep and waits for one under way. Everything else keeps working; the store and the
   * bus are the caller's to close.
   */
  async close(): Promise<void> {
    if (this.#sweepTimer !== undefined) clearInterval(this.#sweepTimer);
    await this.#sweeping;
  }

  /**
   * The user behind a request: the issuer and subject of its verified authorization. A request
   * with authorization that names no user (no issuer or no `sub`) has none. A request without
   * authorization is `unsafeLocalUser` when configured. Never derived from the session id.
   */
  userFor(authInfo: AuthInfo | undefined): UserRef | undefined {
    if (authInfo === undefined) return this.#localUser && { ...this.#localUser };
    return userOf(authInfo);
  }

  /**
   * Stores a new `pending` interaction with a fresh id (128 random bits, base64url) that expires
   * `ttlMs` from now. Each `{interactionId}` (`INTERACTION_ID_IN_URL`) in `url` becomes that id.
   * @throws SdkError "INVALID_ARGUMENT" when `url` is not an absolute http(s) URL, `message` contains
   *   a URL, or `user` or `sessionId` is empty.
   */
  async create(input: InteractionInput): Promise<UserInteraction> {
    const id = randomBytes(16).toString("base64url");
    const href = input.url.replaceAll(INTERACTION_ID_IN_URL, id);
    let url: URL;
    try {
      url = new URL(href);
    } catch {
      throw new SdkError("INVALID_ARGUMENT", "An interaction's url must be an absolute URL");
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") {
      throw new SdkError("INVALID_ARGUMENT", "An interaction's url must be http or https");
    }
    if (messageContainsUrl(input.message)) {
      throw new SdkError("INVALID_ARGUMENT", "An interaction message must not contain a URL; it goes in `url`");
    }
    if (!input.user?.issuer || !input.user.subject || !input.sessionId) {
      throw new SdkError("INVALID_ARGUMENT", "An interaction needs a user (issuer and subject) and a session id");
    }
    const interaction = {
      id,
      url: href,
      message: input.message,
      user: { issuer: input.user.issuer, subject: input.user.subject },
      sessionId: input.sessionId,
      expiresAt: this.#now() + this.#ttlMs,
    };
    const clientName = input.clientName === undefined ? undefined : cleanClientName(input.clientName);
    if (!this.#tracing.settled) await this.#tracing.ready();
    // The request's own context, so that the pages hang beside this step under the request.
    const trace = this.#tracing.carrier();
    const created = await this.#tracing.step(STEP.created, { [ATTR.provider]: providerOf(input.purpose) }, () =>
      this.#store.create({
        ...interaction,
        ...(input.purpose === undefined ? {} : { purpose: input.purpose }),
        ...(clientName === undefined || clientName === "" ? {} : { clientName }),
        ...trace,
      }),
    );
    // The client's own release, cleaned as its name is; an empty one is left out.
    const release = cleanClientName(input.clientVersion ?? "") || undefined;
    await this.#record("handoff.created", created, "ok", release);
    return created;
  }

  /** Appends the record of a step of `interaction` (when there is a log). */
  async #record(
    event: AuditEntry["event"],
    interaction: UserInteraction,
    outcome: AuditEntry["outcome"],
    clientVersion?: string,
    reason?: string,
  ): Promise<void> {
    if (this.#audit === undefined) return;
    await this.#audit(
      interactionRecord(interaction, event, outcome, this.#now(), {
        ...(clientVersion === undefined ? {} : { clientVersion }),
        ...(reason === undefined ? {} : { detail: { reason } }),
      }),
    );
  }

  /** The interaction, `expired` once its deadline passed unless it completed first; `undefined` if unknown. */
  async get(id: string): Promise<UserInteraction | undefined> {
    const interaction = await this.#store.get(id);
    if (interaction === undefined) return undefined;
    const live = interaction.status === "pending" || interaction.status === "accepted";
    const expired = interaction.status === "expired" || (live && this.#now() >= interaction.expiresAt);
    if (expired && this.#audit !== undefined) await this.#noteExpired(interaction);
    return live && expired ? { ...interaction, status: "expired" } : interaction;
  }

  /**
   * Stores `expired` by compare-and-set (the stores show a lapsed interaction as `expired` while
   * it still rests as `pending` or `accepted`), so that of all the readers on every instance that
   * find it past its deadline, exactly one records `handoff.expired`.
   */
  async #noteExpired(interaction: UserInteraction): Promise<void> {
    try {
      const expired = await this.#store.transition(interaction.id, ["pending", "accepted"], "expired");
      if (expired !== undefined) await this.#record("handoff.expired", expired, "ok");
    } catch (error) {
      // Readers still see `expired`; only the record is missing.
      this.#onerror(error);
    }
  }

  /**
   * The user's interactions still waiting for them (`pending` or `accepted`, before their
   * deadline), newest first, at most `limit` (default 50, at most 500): what the inbox page
   * (`/connect/inbox`) lists. Never another user's.
   * @throws SdkError "CAPABILITY_NOT_SUPPORTED" when the store has no `openFor` (the built-in
   *   stores have it); "INVALID_ARGUMENT" for a bad `limit`; the store's errors.
   */
  async openFor(user: UserRef, options: OpenInteractionsOptions = {}): Promise<UserInteraction[]> {
    const store = this.#store;
    if (store.openFor === undefined) {
      throw new SdkError("CAPABILITY_NOT_SUPPORTED", "This interaction store cannot list a user's open interactions");
    }
    const open = await store.openFor(user, options);
    // The store answered for this user; the check costs nothing and keeps a faulty store from leaking.
    return open.filter((interaction) => sameUser(interaction.user, user));
  }

  /** Records the client's answer to a `pending` interaction; `undefined` (nothing changes) otherwise. */
  async recordAnswer(id: string, action: InteractionAction): Promise<UserInteraction | undefined> {
    const current = await this.get(id);
    if (current?.status !== "pending") return undefined;
    const updated = await this.#store.transition(id, ["pending"], ANSWERED[action]);
    if (updated === undefined) return undefined;
    if (action !== "accept")
      await this.#record("handoff.declined", updated, "ok", undefined, `${action} in the client`);
    await this.#publish(updated);
    return updated;
  }

  /**
   * Called by the web side when the user finished: claims the interaction (`completed` in the
   * store, by compare-and-set, so of two racing callers one wins), runs `by.commit`, and only then
   * tells the session that owns it, so a retried request finds what `commit` stored. Only the user
   * it was created for may complete it (same issuer and same subject; anyone else is answered as
   * for an unknown id), only while it is `pending` or `accepted` and before its deadline; a claim
   * made before the deadline stands however long `commit` takes. Any refusal changes nothing.
   *
   * When `commit` throws, the claim is withdrawn: the interaction is again what it was (`expired`
   * if its deadline passed meanwhile), nothing is announced, and the error is rethrown; the user
   * may try again from the same link while it is open. A reader of the store may see `completed`
   * while `commit` runs.
   * @param by.commit what must be stored before anyone hears of the completion, e.g. the vault
   *   write of the grant; it runs only for the caller that won the claim.
   * @throws InteractionError "NOT_FOUND", "EXPIRED" or "NOT_PENDING"; whatever `commit` throws.
   */
  async complete(
    id: string,
    by: { user: UserRef; commit?: (interaction: UserInteraction) => Promise<void> },
  ): Promise<UserInteraction> {
    if (!this.#tracing.settled) await this.#tracing.ready();
    if (!this.#tracing.on) return this.#complete(id, by);
    // Under the page that completes it, or, called from elsewhere, in the trace of the request that created it.
    const from = await this.#store.get(id);
    const trace = from === undefined ? {} : { from, joinActive: true };
    return this.#tracing.step(
      STEP.completed,
      {},
      async (span) => {
        const done = await this.#complete(id, by);
        span?.setAttribute(ATTR.status, done.status);
        return done;
      },
      trace,
    );
  }

  async #complete(
    id: string,
    by: { user: UserRef; commit?: (interaction: UserInteraction) => Promise<void> },
  ): Promise<UserInteraction> {
    let claimed: UserInteraction | undefined;
    let before: InteractionStatus = "pending";
    // Statuses only move forward, so the claim is retried at most once (after pending → accepted).
    for (let attempt = 0; claimed === undefined && attempt < 2; attempt++) {
      const current = await this.get(id);
      // Someone else learns nothing, not even that the id exists.
      if (current === undefined || !sameUser(current.user, by.user)) throw notFound();
      if (current.status === "expired") throw new InteractionError("EXPIRED", "This interaction has expired");
      if (current.status !== "pending" && current.status !== "accepted") {
        throw new InteractionError("NOT_PENDING", `This interaction is already ${current.status}`);
      }
      before = current.status;
      // Only from the status just read, so a withdrawn claim can restore exactly that.
      claimed = await this.#store.transition(id, [before], "completed");
    }
    if (claimed === undefined) {
      const now = await this.get(id);
      if (now?.status === "expired") throw new InteractionError("EXPIRED", "This interaction has expired");
      throw new InteractionError("NOT_PENDING", "This interaction is no longer waiting");
    }
    if (by.commit !== undefined) {
      try {
        await by.commit(claimed);
      } catch (error) {
        await this.#withdraw(id, before);
        await this.#record("handoff.completed", claimed, "failed", undefined, "storing the result failed");
        throw error;
      }
    }
    await this.#record("handoff.completed", claimed, "ok");
    await this.#publish(claimed, false, await this.#deliverHere(claimed));
    return claimed;
  }

  /**
   * Called by the web side when the user declines on the page: `pending` or `accepted` becomes
   * `declined`, and the owning session hears of it, so a request waiting for the interaction
   * (`waitForCompletion`) ends with "DECLINED" at once instead of at the deadline. The same rules as
   * `complete` decide who may: only its user (anyone else is answered as for an unknown id), only
   * while it is open and before its deadline.
   * @throws InteractionError "NOT_FOUND", "EXPIRED" or "NOT_PENDING".
   */
  async decline(id: string, by: { user: UserRef }): Promise<UserInteraction> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const current = await this.get(id);
      if (current === undefined || !sameUser(current.user, by.user)) throw notFound();
      if (current.status === "expired") throw new InteractionError("EXPIRED", "This interaction has expired");
      if (current.status !== "pending" && current.status !== "accepted") {
        throw new InteractionError("NOT_PENDING", `This interaction is already ${current.status}`);
      }
      const declined = await this.#store.transition(id, [current.status], "declined");
      if (declined !== undefined) {
        await this.#record("handoff.declined", declined, "ok", undefined, "declined on the page");
        await this.#publish(declined, true, await this.#deliverHere(declined));
        return declined;
      }
    }
    throw new InteractionError("NOT_PENDING", "This interaction is no longer waiting");
  }

  /** Undoes an unannounced claim: back to `status`, or `expired` once the deadline has passed. */
  async #withdraw(id: string, status: InteractionStatus): Promise<void> {
    try {
      const back = await this.#store.transition(id, ["completed"], status);
      if (back === undefined) await this.#store.transition(id, ["completed"], "expired");
    } catch (error) {
      // The store failed too: the interaction stays claimed but unannounced until it is swept.
      this.#onerror(error);
    }
  }

  /**
   * Resolves with the interaction once it is `completed`, wherever it was completed.
   * @throws InteractionError "NOT_FOUND", "EXPIRED" (its deadline passed first), "DECLINED" or
   *   "CANCELLED"; the signal's reason when `signal` aborts first.
   */
  waitForCompletion(id: string, signal?: AbortSignal): Promise<UserInteraction> {
    return waitForSettled({
      id,
      signal,
      now: this.#now,
      read: () => this.get(id),
      subscribe: (sessionId, onChange) =>
        this.#bus.subscribe(this.#channel(sessionId), (message) => {
          if (readChange(message)?.id === id) onChange();
        }),
    });
  }

  /**
   * Calls `listener` with the id of each interaction of `sessionId` that completes, or that the user
   * declines on the page (`decline`), on this or any other instance sharing the bus: either way the
   * user is done with the page, and a client waiting to retry (revision 2025-11-25, error -32042)
   * is told so. An answer the client gave (`recordAnswer`) is not reported: the client knows it.
   * @returns a function that stops listening.
   */
  watchSession(sessionId: string, listener: (id: string, delivered: boolean) => void): Promise<() => Promise<void>> {
    return this.#bus.subscribe(this.#channel(sessionId), (message) => {
      const change = readChange(message);
      if (change?.status === "completed" || (change?.status === "declined" && change.onPage === true)) {
        listener(change.id, change.delivered === true);
      }
    });
  }

  /**
   * Registers how this instance tells a session's client that its interaction is done: `complete`
   * and `decline` run the deliverers in turn, after `commit` and before the bus hears of it, until
   * one resolves `true`; the change on the bus then says `delivered`, and no other instance sends
   * the notice again. A deliverer that rejects counts as `false` and goes to `onerror`.
   * `McpServer` registers one when it serves a fleet's sessions.
   * @returns a function that removes `deliver`.
   */
  deliverCompletionsWith(deliver: (interaction: UserInteraction) => Promise<boolean>): () => void {
    this.#deliverers.add(deliver);
    return () => {
      this.#deliverers.delete(deliver);
    };
  }

  async #deliverHere(interaction: UserInteraction): Promise<boolean> {
    for (const deliver of [...this.#deliverers]) {
      try {
        if (await deliver(interaction)) return true;
      } catch (error) {
        this.#onerror(error);
      }
    }
    return false;
  }

  #channel(sessionId: string): string {
    return `${this.#prefix}${sessionId}`;
  }

  #publish(interaction: UserInteraction, onPage = false, delivered = false): Promise<void> {
    return this.#bus.publish(this.#channel(interaction.sessionId), writeChange(interaction, onPage, delivered));
  }
}
