/**
 * The hand-offs of one client connection: asking the client to open a page in the form it
 * understands, answering `InteractionRequired` with that form's error, following an interaction
 * for `interaction/track`, and telling the client when one of its interactions completed.
 */

import { ErrorCode, ProtocolError, SdkError } from "../jsonrpc/errors.js";
import type { RequestId } from "../jsonrpc/messages.js";
import type { InboundRequest, Params, Result } from "../jsonrpc/session.js";
import { sameUser } from "../model/identity.js";
import type { UserInteraction } from "../model/interaction.js";
import type { Implementation, InteractionTracking, InteractionWire, Revision } from "../revisions/index.js";
import { messageContainsUrl } from "../revisions/index.js";
import { ATTR, STEP, type Tracing } from "../tracing/index.js";
import { chooseWire, type HandoffLadderOptions, inboxText } from "./handoff-ladder.js";
import type {
  InteractionOutcome,
  InteractionRequired,
  InteractionService,
  InteractOptions,
  InteractParams,
} from "./interactions.js";

/** What the connection gives its hand-offs. */
export interface InteractionsHost {
  sessionId(): string;
  readonly service: InteractionService | undefined;
  /** Notes the request an interaction was asked in, so its completion can travel with it. */
  started(interactionId: string, requestId: RequestId): void;
  /** Sends a notification about an interaction, with the request that asked for it while that is open. */
  notifyAbout(interactionId: string, method: string, params: Params): Promise<void>;
  report(message: string, error: unknown): void;
  /** The requesting client's self-declared name for this request (`clientInfo`: its title, else its name). */
  clientName(inbound: InboundRequest): string | undefined;
  /** The requesting client's `clientInfo` for this request, as it declared it (unverified). */
  clientInfo(inbound: InboundRequest): Implementation | undefined;
  /** The server's `handoffs` option: the inbox rung and its choice of form per client. */
  readonly ladder: HandoffLadderOptions | undefined;
  /** Where the span of telling the client about a completion goes. */
  readonly tracing: Tracing;
}

/** What a handler's `InteractionRequired` asks for. */
export function handoffOf(error: InteractionRequired): InteractParams {
  return error.purpose === undefined
    ? { url: error.url, message: error.message }
    : { url: error.url, message: error.message, purpose: error.purpose };
}

/**
 * The answer to a request whose handler needs a page it cannot have (no hand-off possible, or the
 * user refused it): an `isError` result saying why when `asResult` (a tool call: spec:
 * server/tools § Error Handling), else -32603 with that text.
 * @throws ProtocolError -32603 when not `asResult`.
 */
export function handoffRefusal(text: string, asResult: boolean): Result {
  if (asResult) return { content: [{ type: "text", text }], isError: true };
  throw new ProtocolError(ErrorCode.InternalError, text);
}

/** Why no hand-off is possible with this client. */
export const CANNOT_OPEN =
  "This client cannot open the page where that happens: it supports neither URL-mode elicitation nor user interaction.";

export class SessionInteractions {
  #wire: InteractionWire | undefined;
  #tracking: InteractionTracking | undefined;
  #watching: Promise<() => Promise<void>> | undefined;
  #closed = false;

  constructor(private readonly host: InteractionsHost) {}

  /**
   * Learns the client's wire form once `initialize` is answered.
   * @returns the `interaction/track` handling when the client declared it, for the connection to serve.
   */
  start(revision: Revision, clientCapabilities: unknown, clientInfo?: Implementation): InteractionTracking | undefined {
    this.#wire = chooseWire(revision, clientCapabilities, clientInfo, this.host.ladder, this.host.report);
    this.#tracking = revision.interactionTracking(clientCapabilities);
    return this.#tracking;
  }

  /** `ctx.interact`: asks the client to open the page and resolves with the user's answer. */
  async interact(
    params: InteractParams,
    options: InteractOptions,
    inbound: InboundRequest,
  ): Promise<InteractionOutcome> {
    const { wire, service, interaction } = await this.create(params, inbound, this.#wire);
    const request = wire.request(interaction);
    if (request === undefined) throw new SdkError("CAPABILITY_NOT_SUPPORTED", CANNOT_OPEN);
    this.host.started(interaction.id, inbound.id);
    // The client's answer is awaited only while the interaction lives: a client gone for good
    // must not hold this request, and with it the session, for ever.
    const settled = new AbortController();
    let ended: { interaction: UserInteraction } | { error: unknown } | undefined;
    service.waitForCompletion(interaction.id, settled.signal).then(
      (done) => {
        ended = { interaction: done };
        settled.abort();
      },
      (error: unknown) => {
        if (settled.signal.aborted) return;
        ended = { error };
        settled.abort();
      },
    );
    const requestOptions = {
      timeoutMs: options.timeoutMs ?? Number.POSITIVE_INFINITY,
      signal: options.signal ? AbortSignal.any([options.signal, settled.signal]) : settled.signal,
    };
    let action: InteractionOutcome["action"];
    try {
      action = wire.answer(await inbound.request(request.method, request.params, requestOptions));
    } catch (error) {
      // Declined on the page first: the user's answer, as if given in the client. Expired (or gone)
      // first: the manager's error; completed on the web side first: the user evidently opened the page.
      if (ended !== undefined && "error" in ended) {
        const now = await service.get(interaction.id).catch(() => undefined);
        if (now?.status === "declined") return { action: "decline", interaction: now };
        throw ended.error;
      }
      if (ended !== undefined) return { action: "accept", interaction: ended.interaction };
      const answered = wire.answerFromError(error);
      if (answered === undefined) {
        await service.recordAnswer(interaction.id, "cancel").catch(() => undefined);
        throw error;
      }
      action = answered;
    } finally {
      settled.abort();
    }
    const updated = await service.recordAnswer(interaction.id, action);
    return { action, interaction: updated ?? (await service.get(interaction.id)) ?? interaction };
  }

  /**
   * A handler threw `InteractionRequired`: stores the interaction and throws the wire form's error.
   * When no hand-off is possible, the answer says why (never the URL), as `handoffRefusal` words it.
   * @param asResult whether the method answers a refusal with an `isError` result (`tools/call`).
   */
  async required(error: InteractionRequired, asResult: boolean, inbound: InboundRequest): Promise<Result> {
    let refusal: ProtocolError | undefined;
    try {
      const { wire, interaction } = await this.create(handoffOf(error), inbound, this.#wire);
      refusal = wire.requiredError(interaction);
    } catch (failure) {
      // Our own refusals say what to fix; anything else (a store failing) stays in the server's log.
      if (!(failure instanceof SdkError)) this.host.report("Could not start a hand-off", failure);
      const text = failure instanceof SdkError ? failure.message : "The server could not start the hand-off";
      return handoffRefusal(text, asResult);
    }
    throw refusal ?? new ProtocolError(ErrorCode.InternalError, CANNOT_OPEN);
  }

  /**
   * `interaction/track`: reports where the interaction stands at once, then completion (progress
   * equal to total), and answers `{}` once it is over. An id this client's user did not receive on
   * this session is refused with -32602, the same as an unknown id, and gets no progress.
   */
  async track(params: Params, inbound: InboundRequest): Promise<Result> {
    const tracking = this.#tracking;
    const service = this.host.service;
    const id = tracking?.trackedId(params);
    const user = service?.userFor(inbound.extra?.authInfo);
    const interaction = id === undefined || user === undefined ? undefined : await service?.get(id);
    if (
      tracking === undefined ||
      service === undefined ||
      user === undefined ||
      interaction === undefined ||
      interaction.sessionId !== this.host.sessionId() ||
      !sameUser(interaction.user, user)
    ) {
      throw new ProtocolError(ErrorCode.InvalidParams, "Invalid params: no interaction with this id was sent to you");
    }
    await inbound.sendProgress(tracking.progress(interaction.status));
    if (interaction.status !== "pending" && interaction.status !== "accepted") return {};
    try {
      await service.waitForCompletion(interaction.id, inbound.signal);
      await inbound.sendProgress(tracking.progress("completed"));
    } catch {
      // Declined, cancelled or expired: the answer without full progress says it did not complete.
    }
    return {};
  }

  /**
   * The wire form of one request that carries its own capabilities and `clientInfo` (a multi
   * round-trip request of revision 2026-07-28), by the same ladder as a session's; `revision` says
   * what the capabilities declare.
   */
  wireFor(
    revision: Pick<Revision, "interactionWire">,
    clientCapabilities: unknown,
    inbound: InboundRequest,
  ): InteractionWire {
    const client = this.host.clientInfo(inbound);
    return chooseWire(revision, clientCapabilities, client, this.host.ladder, this.host.report);
  }

  /** `ctx.waitForInteraction`: waits within the request, for an interaction of the request's user only. */
  async waitFor(id: string, signal: AbortSignal, inbound: InboundRequest): Promise<UserInteraction> {
    await this.ownInteraction(id, inbound);
    return this.service().waitForCompletion(id, signal);
  }

  /**
   * The interaction `id` as the store reads it now (`undefined` when unknown), when it belongs to
   * the request's verified user, as `interaction/track` requires: a handler that waits on an id
   * its arguments name must not hand one user's page, or its outcome, to another.
   * @throws SdkError "INVALID_ARGUMENT" for another user's interaction (or any, for a request
   *   without a verified user), saying nothing of it.
   */
  async ownInteraction(id: string, inbound: InboundRequest): Promise<UserInteraction | undefined> {
    const service = this.service();
    const interaction = await service.get(id);
    if (interaction === undefined) return undefined;
    const user = service.userFor(inbound.extra?.authInfo);
    if (user === undefined || !sameUser(interaction.user, user)) {
      throw new SdkError("INVALID_ARGUMENT", "No interaction with this id was started for this user");
    }
    return interaction;
  }

  /**
   * The interaction when it is still waiting for the user (pending or accepted); the store reads
   * one past its deadline as expired, with its own clock.
   */
  async openInteraction(id: string): Promise<UserInteraction | undefined> {
    const interaction = await this.service().get(id);
    const open = interaction?.status === "pending" || interaction?.status === "accepted";
    return open ? interaction : undefined;
  }

  /**
   * Hears the completions of this session's hand-offs from now on, even of those another
   * instance asked for (a fleet's instance holding the client's GET stream), and tells the client.
   * Failures go to the server's logger.
   */
  listen(): void {
    const service = this.host.service;
    const wire = this.#wire;
    if (service === undefined || wire?.completionNotice("") === undefined || this.#closed) return;
    this.#watch(service, wire).catch((error: unknown) => this.host.report("Could not watch for hand-offs", error));
  }

  /**
   * Tells the client that `interaction`, done on this instance, is over (`deliverCompletionsWith`).
   * @returns whether the notice was sent: `false` for another session's interaction, one still
   *   open, or a client whose wire form has no completion notice.
   * @throws what sending throws.
   */
  async tell(interaction: UserInteraction): Promise<boolean> {
    const over = interaction.status === "completed" || interaction.status === "declined";
    const notice = this.#wire?.completionNotice(interaction.id);
    if (this.#closed || !over || interaction.sessionId !== this.host.sessionId() || notice === undefined) return false;
    await this.host.notifyAbout(interaction.id, notice.method, notice.params);
    return true;
  }

  async close(): Promise<void> {
    this.#closed = true;
    const stop = await this.#watching?.catch(() => undefined);
    await stop?.().catch((error: unknown) => this.host.report("Could not stop watching interactions", error));
  }

  /**
   * The server's interaction service.
   * @throws SdkError "INVALID_ARGUMENT" when the server was made without the `interactions` option.
   */
  service(): InteractionService {
    const service = this.host.service;
    if (service === undefined) {
      throw new SdkError(
        "INVALID_ARGUMENT",
        "This server cannot hand users off to a page: create McpServer with the `interactions` option",
      );
    }
    return service;
  }

  /** Reports a local problem to the server's logger. */
  report(message: string, error: unknown): void {
    this.host.report(message, error);
  }

  /**
   * Checks everything, stores the interaction for `wire` and makes sure its completion will reach this session.
   * @throws SdkError "INVALID_ARGUMENT" for a URL in the message or a request without a verified
   *   user; "CAPABILITY_NOT_SUPPORTED" when `wire` cannot open a page: for the inbox rung after
   *   storing the interaction, with the text naming the inbox page.
   */
  async create(params: InteractParams, inbound: InboundRequest, wire: InteractionWire | undefined) {
    const authInfo = inbound.extra?.authInfo;
    // Only the wire form's `url` field may carry the URL (spec 2025-11-25: client/elicitation § Safety).
    if (messageContainsUrl(params.message)) {
      throw new SdkError("INVALID_ARGUMENT", "An interaction message must not contain a URL; it goes in `url`");
    }
    if (wire === undefined || wire.form === "none") {
      throw new SdkError("CAPABILITY_NOT_SUPPORTED", `${params.message} ${CANNOT_OPEN}`.trim());
    }
    const service = this.service();
    const user = service.userFor(authInfo);
    if (user === undefined) {
      throw new SdkError(
        "INVALID_ARGUMENT",
        "Cannot start a hand-off: the request carries no verified user (authorization with an issuer and a subject)",
      );
    }
    const clientName = this.host.clientName(inbound);
    const declared = this.host.clientInfo(inbound)?.version;
    const clientVersion = typeof declared === "string" ? declared : undefined;
    const interaction = await service.create({
      url: params.url,
      message: params.message,
      user,
      sessionId: this.host.sessionId(),
      ...(params.purpose === undefined ? {} : { purpose: params.purpose }),
      ...(clientName === undefined ? {} : { clientName }),
      ...(clientVersion === undefined ? {} : { clientVersion }),
    });
    const inbox = this.host.ladder?.inbox;
    // The inbox rung: stored for the user, who finds it on the inbox page; the client learns only that URL.
    if (wire.form === "inbox" && inbox !== undefined) {
      throw new SdkError("CAPABILITY_NOT_SUPPORTED", inboxText(params.message, inbox.url));
    }
    if (wire.completionNotice(interaction.id) !== undefined) await this.#watch(service, wire);
    return { wire, service, interaction };
  }

  /** Subscribes once, before the client can learn of any interaction, so no completion is missed. */
  async #watch(service: InteractionService, wire: InteractionWire): Promise<void> {
    this.#watching ??= service
      .watchSession(this.host.sessionId(), (id, delivered) => {
        // Told already by the instance where it completed: a second notice would be a duplicate.
        if (!delivered) void this.#deliver(service, wire, id);
      })
      .catch((error: unknown) => {
        this.#watching = undefined;
        throw error;
      });
    const stop = await this.#watching;
    // Closed meanwhile: nothing would stop the subscription later.
    if (this.#closed) await stop();
  }

  async #deliver(service: InteractionService, wire: InteractionWire, id: string): Promise<void> {
    try {
      // The bus only says which id; the store says whether it is really this session's and done
      // (completed, or declined on the page: the retry then learns that from the credentials).
      const interaction = await service.get(id);
      const over = interaction?.status === "completed" || interaction?.status === "declined";
      if (interaction?.sessionId !== this.host.sessionId() || !over) return;
      const notice = wire.completionNotice(id);
      if (notice === undefined) return;
      // In the trace of the request that created the interaction, on whichever instance holds the session.
      await this.host.tracing.step(
        STEP.delivered,
        { [ATTR.status]: interaction.status },
        () => this.host.notifyAbout(id, notice.method, notice.params),
        { from: interaction },
      );
    } catch (error) {
      this.host.report("Could not deliver an interaction's completion", error);
    }
  }
}
