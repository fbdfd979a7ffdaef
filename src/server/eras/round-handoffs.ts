/**
 * The hand-offs of one multi round-trip request (revision 2026-07-28): the server never waits for
 * the client or the user within the request. A page the handler needs is collected into the
 * round's `InputRequiredResult`, and the retry carries the client's answer; the stored
 * interaction (kept by the connection's `SessionInteractions`) says whether the user is done.
 */

import { SdkError } from "../../jsonrpc/errors.js";
import type { Result } from "../../jsonrpc/session.js";
import type { UserInteraction } from "../../model/interaction.js";
import { type InteractionWire, requestInteractionWire } from "../../revisions/index.js";
import type { HandoffApi } from "../context.js";
import type { InteractionOutcome, InteractParams } from "../handoff-types.js";
import { InputNeeded } from "../input-needed.js";
import type { InteractionRequired } from "../interactions.js";
import { CANNOT_OPEN, handoffOf, handoffRefusal, type SessionInteractions } from "../session-interactions.js";
import type { InputRound } from "./input-round.js";

/** `ctx.interact` and `ctx.waitForInteraction` of a request that runs in `round`. */
export class RoundHandoffs implements HandoffApi {
  /** @param core the connection's hand-offs, read only when the handler uses one. */
  constructor(
    private readonly core: () => SessionInteractions,
    private readonly round: InputRound,
  ) {}

  /**
   * `ctx.interact`: the first run stores the interaction and asks the client to open its page; a
   * retry finds the user's answer under the same key.
   */
  async interact(params: InteractParams): Promise<InteractionOutcome> {
    const round = this.round;
    const core = this.core();
    const service = core.service();
    const key = round.handoffKey();
    const earlier = round.answered(key);
    const known = earlier?.interaction === undefined ? undefined : await service.get(earlier.interaction);
    if (earlier !== undefined && known !== undefined) {
      const wire = requestInteractionWire(round.clientCapabilities);
      // Declined on the page meanwhile: that is the user's last word, whatever the client said.
      const action = known.status === "declined" ? "decline" : wire.answer(earlier.result);
      const updated = known.status === "pending" ? await service.recordAnswer(known.id, action) : undefined;
      return { action, interaction: updated ?? known };
    }
    const wire = roundWire(core, round);
    const { interaction } = await core.create(params, round.inbound, wire);
    askAgain(round, interaction, key);
    throw new InputNeeded();
  }

  /**
   * `ctx.waitForInteraction`: an interaction still open is asked for again (the same page), and
   * the client retries once the user is done.
   */
  async waitFor(id: string, signal: AbortSignal): Promise<UserInteraction> {
    const round = this.round;
    const core = this.core();
    const service = core.service();
    // Another user's is refused: its page must not go into this client's round.
    const known = await core.ownInteraction(id, round.inbound);
    const open = known?.status === "pending" || known?.status === "accepted";
    const interaction = open ? known : undefined;
    if (interaction === undefined) return service.waitForCompletion(id, signal);
    askAgain(round, interaction, round.keyOf(id) ?? round.handoffKey());
    throw new InputNeeded();
  }
}

/**
 * A multi round-trip request's handler threw `InteractionRequired`: stores the interaction and
 * collects its page as an input request of the round. @returns the interaction's id, for the
 * `requestState`, so the retry can check the store before running the handler again; or, when
 * no hand-off is possible, the answer to send instead (as `SessionInteractions.required` words it).
 * @param asResult whether the method answers a refusal with an `isError` result (`tools/call`).
 * @throws ProtocolError -32603 with the reason when no hand-off is possible and not `asResult`.
 */
export async function requiredInRound(
  core: SessionInteractions,
  error: InteractionRequired,
  asResult: boolean,
  round: InputRound,
): Promise<{ handoff: string } | { answer: Result }> {
  const wire = roundWire(core, round);
  try {
    const { interaction } = await core.create(handoffOf(error), round.inbound, wire);
    askAgain(round, interaction, round.handoffKey());
    return { handoff: interaction.id };
  } catch (failure) {
    if (!(failure instanceof SdkError)) core.report("Could not start a hand-off", failure);
    const text = failure instanceof SdkError ? failure.message : "The server could not start the hand-off";
    return { answer: handoffRefusal(text, asResult) };
  }
}

/** The wire form of the round's request, by the server's ladder over what the request declares. */
function roundWire(core: SessionInteractions, round: InputRound): InteractionWire {
  const revision = { interactionWire: (caps: unknown) => requestInteractionWire(caps as Record<string, unknown>) };
  return core.wireFor(revision, round.clientCapabilities, round.inbound);
}

/** Puts the page of an open interaction into the round again, under `key`. */
function askAgain(round: InputRound, interaction: UserInteraction, key: string): void {
  const request = requestInteractionWire(round.clientCapabilities).request(interaction);
  if (request === undefined) throw new SdkError("CAPABILITY_NOT_SUPPORTED", CANNOT_OPEN);
  round.reask(key, request.method, request.params, interaction.id);
}
