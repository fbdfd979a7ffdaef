/**
 * One round of a multi round-trip request (revision 2026-07-28): the handler runs again on every
 * retry, and each thing it asks the client for (`ctx.elicit`, `ctx.sample`, `ctx.listRoots`, a
 * hand-off) is answered from the retry's `inputResponses` or from what earlier rounds carried in
 * the sealed `requestState`. An ask without an answer is collected; once the handler stops, the
 * collected asks become the `InputRequiredResult` the client retries with.
 */
import type { ProtocolError } from "../../jsonrpc/errors.js";
import type { RequestId } from "../../jsonrpc/messages.js";
import type { InboundRequest, Params, Result } from "../../jsonrpc/session.js";
import {
  assertClientCapability,
  checkInputResponse,
  type InputRequests,
  type InputRequiredResult,
  type InteractionAction,
  questionDigest,
  RESULT_INPUT_REQUIRED,
  type RequestStateAnswer,
  type RequestStateAsk,
  type RequestStatePayload,
  swappedQuestion,
} from "../../revisions/index.js";
import { InputNeeded } from "../input-needed.js";

/** An input request of this round, with the hand-off it opens a page for, if any. */
interface Ask extends RequestStateAsk {
  params: Params;
}

/** The retry's answer to a page the previous round asked the user to open. */
export interface HandoffAnswer {
  /** The `inputRequests` key it was asked under. */
  key: string;
  /** The interaction whose page it was. */
  interaction: string;
  /** What the user said: `accept` (the page is open; not that it is done), `decline` or `cancel`. */
  action: InteractionAction;
}

export class InputRound {
  /** Answers usable in this run: earlier rounds' and this retry's, by key. */
  readonly #answers: Record<string, RequestStateAnswer>;
  /** Answers the handler used in this run; the next state carries only these. */
  readonly #used: Record<string, RequestStateAnswer> = {};
  readonly #asks: Ask[] = [];
  readonly #counters = new Map<string, number>();
  readonly #handoffAnswers: HandoffAnswer[] = [];
  #refusal: ProtocolError | undefined;
  readonly inbound: InboundRequest;

  /**
   * @param state what earlier rounds established (from the verified `requestState`), if any.
   * @param inputResponses the retry's answers; only keys the last round asked for are read when a
   *   state names them, and an answer of the wrong shape is refused (-32602) when used.
   */
  constructor(
    inbound: InboundRequest,
    readonly clientCapabilities: Record<string, unknown>,
    readonly state: RequestStatePayload | undefined,
    inputResponses: Record<string, unknown> | undefined,
  ) {
    this.#answers = { ...(state?.answers ?? {}) };
    const pending = new Map((state?.pending ?? []).map((ask) => [ask.key, ask]));
    for (const [key, result] of Object.entries(inputResponses ?? {})) {
      const ask = pending.get(key);
      if (state !== undefined && ask === undefined) continue;
      this.#answers[key] = {
        method: ask?.method ?? "",
        result: result as Record<string, unknown>,
        ...(ask?.interaction === undefined ? {} : { interaction: ask.interaction }),
        ...(ask?.question === undefined ? {} : { question: ask.question }),
      };
      const action = (result as { action?: unknown } | null)?.action;
      if (ask?.interaction !== undefined && isAction(action)) {
        this.#handoffAnswers.push({ key, interaction: ask.interaction, action });
      }
    }
    // The inbound request is a class instance: its methods are delegated, not spread. Its signal
    // is made when first read, so it is read only by a handler that asks for it.
    const round: InboundRequest = {
      id: inbound.id,
      method: inbound.method,
      get signal() {
        return inbound.signal;
      },
      meta: inbound.meta,
      progressToken: inbound.progressToken,
      extra: inbound.extra,
      sendProgress: (progress) => inbound.sendProgress(progress),
      notify: (method, params) => inbound.notify(method, params),
      request: (method, params, options) =>
        this.ask(method, params ?? {}, (options as { inputKey?: string } | undefined)?.inputKey),
    };
    this.inbound = round;
  }

  get requestId(): RequestId {
    return this.inbound.id;
  }

  /** The next key for an ask of `method` without a key of its own, e.g. `elicitation-1`. */
  #nextKey(method: string): string {
    const base = method.split("/")[0] ?? method;
    const count = (this.#counters.get(base) ?? 0) + 1;
    this.#counters.set(base, count);
    return `${base}-${count}`;
  }

  /**
   * Asks the client for `method` with `params`: the recorded answer when there is one, else the
   * ask is collected and `InputNeeded` thrown.
   * @throws MissingClientCapabilityError (SdkError "CAPABILITY_NOT_SUPPORTED") when the request's
   *   capabilities lack what `method` needs, as in the stateful era; ProtocolError -32602 when the
   *   answer does not have the method's result shape, or answers another question than this one
   *   (what was asked under `key` in an earlier round, as sealed in the `requestState`, differs).
   */
  async ask(method: string, params: Params, key = this.#nextKey(method), interaction?: string): Promise<Result> {
    const refusal = assertClientCapability(this.clientCapabilities, method, params);
    if (refusal) throw refusal;
    // This revision has no elicitationId: the retry itself says the page was visited.
    const { elicitationId: _id, ...asked } = params;
    const question = questionDigest(method, asked);
    const answer = this.#answers[key];
    if (answer !== undefined && (answer.method === "" || answer.method === method)) {
      if (answer.question !== undefined && answer.question !== question) {
        this.#refusal = swappedQuestion(key);
        throw this.#refusal;
      }
      const result = checkInputResponse(key, method, answer.result);
      this.#used[key] = { ...answer, method };
      return result;
    }
    this.#asks.push({ key, method, params: asked, question, ...(interaction === undefined ? {} : { interaction }) });
    throw new InputNeeded();
  }

  /** Collects an ask whatever was answered before: a page the user has not finished with yet. */
  reask(key: string, method: string, params: Params, interaction: string): void {
    this.#asks.push({ key, method, params, interaction, question: questionDigest(method, params) });
  }

  /** The refusal of an answer to a swapped question in this run, which ends the call whatever the handler did with it. */
  get refusal(): ProtocolError | undefined {
    return this.#refusal;
  }

  /**
   * What the retry answered for the pages the previous round asked for (the interaction ids come
   * from the verified `requestState`, never from the client), in asking order.
   */
  get handoffAnswers(): readonly HandoffAnswer[] {
    return this.#handoffAnswers;
  }

  /** The key an earlier round used for the hand-off `interaction`, if any. */
  keyOf(interaction: string): string | undefined {
    return Object.entries(this.#answers).find(([, answer]) => answer.interaction === interaction)?.[0];
  }

  /** The hand-off recorded under `key` in an earlier round, with the user's answer, if any. */
  answered(key: string): RequestStateAnswer | undefined {
    const answer = this.#answers[key];
    if (answer === undefined) return undefined;
    this.#used[key] = answer;
    return answer;
  }

  /** The next key of a hand-off (`handoff-1`, ...), in the order the handler starts them. */
  handoffKey(): string {
    return this.#nextKey("handoff");
  }

  /** Whether the handler asked for something it has no answer to. */
  get needsInput(): boolean {
    return this.#asks.length > 0;
  }

  /**
   * The `InputRequiredResult` of this round. `seal` turns what the next round needs into the
   * `requestState`, with the digest of each question asked; `handoff` names a hand-off the retry
   * must find completed.
   */
  async result(
    seal: (payload: RequestStatePayload) => Promise<string>,
    handoff?: string,
  ): Promise<InputRequiredResult> {
    const inputRequests: InputRequests = {};
    for (const ask of this.#asks) {
      inputRequests[ask.key] = { method: ask.method as never, params: ask.params };
    }
    const pending = this.#asks.map(({ key, method, interaction, question }) =>
      interaction === undefined ? { key, method, question } : { key, method, interaction, question },
    );
    const payload: RequestStatePayload = { answers: this.#used, pending };
    if (handoff !== undefined) payload.handoff = handoff;
    const result: InputRequiredResult = { resultType: RESULT_INPUT_REQUIRED, requestState: await seal(payload) };
    if (this.#asks.length > 0) result.inputRequests = inputRequests;
    return result;
  }
}

function isAction(value: unknown): value is InteractionAction {
  return value === "accept" || value === "decline" || value === "cancel";
}
