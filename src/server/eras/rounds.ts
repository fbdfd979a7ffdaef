/**
 * A request that may answer `InputRequiredResult` (revision 2026-07-28: multi round-trip
 * requests): the handler runs with asks answered from the retry; what it still needs ends the call
 * with an `InputRequiredResult`, whose sealed `requestState` the retry brings back.
 */
import type { InboundRequest, Params, Result } from "../../jsonrpc/session.js";
import { STEP } from "../../tracing/index.js";
import { InputNeeded } from "../input-needed.js";
import { InteractionRequired } from "../interactions.js";
import type { LogSender } from "../request-contexts.js";
import type { EraConnection, HandlerMethod } from "./driver.js";
import { refusedHandoffAnswer, settleHandoffs } from "./handoff-hold.js";
import { InputRound } from "./input-round.js";
import { type RequestStateOf, requestStateFor, stateUser } from "./request-state.js";
import { RoundHandoffs, requiredInRound } from "./round-handoffs.js";

/**
 * Runs one round of `method`. The retry's answers to the previous round's pages are recorded
 * first, and an `accept` for a page still open is held until it completes (`handoffHoldMs`); a
 * hand-off the previous round started (`InteractionRequired`) that the user declined ends the
 * call, and one still open after the hold is asked for again, neither running the handler.
 * @throws ProtocolError -32602 for a `requestState` that is altered, expired, another user's or
 *   another request's, or for answers to a question other than the one the handler asks now;
 *   what the handler throws that is not a request for input.
 */
export async function runInRounds(
  connection: EraConnection,
  method: string,
  spec: HandlerMethod,
  params: Params,
  inbound: InboundRequest,
  clientCapabilities: Record<string, unknown>,
  log: LogSender,
): Promise<Result> {
  const settings = connection.settings;
  const authInfo = inbound.extra?.authInfo;
  const state = requestStateFor(settings.stateless, method, params, stateUser(authInfo, settings.interactions));
  const payload = await state.open();
  const service = settings.interactions;
  const serve = () => serveRound(connection, method, spec, params, inbound, clientCapabilities, log, state, payload);
  if (payload?.handoff === undefined || service === undefined || !settings.tracing.on) return serve();
  // A retry after a hand-off: in the trace the client sent, linked to the hand-off's when that is another.
  const from = await service.get(payload.handoff);
  return settings.tracing.step(STEP.retry, {}, serve, from === undefined ? {} : { from, joinActive: true });
}

async function serveRound(
  connection: EraConnection,
  method: string,
  spec: HandlerMethod,
  params: Params,
  inbound: InboundRequest,
  clientCapabilities: Record<string, unknown>,
  log: LogSender,
  state: RequestStateOf,
  payload: Awaited<ReturnType<RequestStateOf["open"]>>,
): Promise<Result> {
  const settings = connection.settings;
  const asResult = spec.refusesWithResult === true;
  const inputResponses =
    typeof params.inputResponses === "object" && params.inputResponses !== null
      ? (params.inputResponses as Record<string, unknown>)
      : undefined;
  const round = new InputRound(inbound, clientCapabilities, payload, inputResponses);
  const service = settings.interactions;
  const answered = service === undefined ? [] : await settleHandoffs(round, service, settings.stateless.handoffHoldMs);
  const refused = answered.find((answer) => answer.interaction === payload?.handoff && answer.action !== "accept");
  if (refused !== undefined && service !== undefined) {
    return refusedHandoffAnswer(asResult, refused, (await service.get(refused.interaction))?.message);
  }
  if (payload?.handoff !== undefined && service !== undefined) {
    // Declined on the page itself (the client had said `accept`): the call ends declined too,
    // rather than running the handler, which would only ask for the page again.
    const handoff = await service.get(payload.handoff);
    if (handoff?.status === "declined") {
      const key = payload.pending.find((ask) => ask.interaction === handoff.id)?.key ?? "";
      return refusedHandoffAnswer(asResult, { key, interaction: handoff.id, action: "decline" }, handoff.message);
    }
    const open = await connection.interactions.openInteraction(payload.handoff);
    if (open !== undefined) {
      const key = payload.pending.find((ask) => ask.interaction === open.id)?.key ?? round.handoffKey();
      round.reask(key, "elicitation/create", { mode: "url", url: open.url, message: open.message }, open.id);
      return (await round.result(state.seal, open.id)) as unknown as Result;
    }
  }
  let result: Result | undefined;
  let handoff: string | undefined;
  try {
    const handoffs = new RoundHandoffs(() => connection.interactions, round);
    const ctx = connection.context(round.inbound, clientCapabilities, log, handoffs);
    result = await connection.route(method, spec, params, ctx);
  } catch (error) {
    if (error instanceof InteractionRequired) {
      const outcome = await requiredInRound(connection.interactions, error, asResult, round);
      if ("answer" in outcome) return outcome.answer;
      handoff = outcome.handoff;
    } else if (!(error instanceof InputNeeded) || !round.needsInput) {
      throw round.refusal ?? error;
    }
  }
  // An answer to a swapped question ends the call even when the handler caught the refusal.
  if (round.refusal !== undefined) throw round.refusal;
  if (round.needsInput || result === undefined) return (await round.result(state.seal, handoff)) as unknown as Result;
  return result;
}
