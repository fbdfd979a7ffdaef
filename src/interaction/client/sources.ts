/**
 * A source is one wire form of hand-offs, plugged into `HandoffClient`: URL-mode elicitation
 * (`elicitation/create`, -32042, `notifications/elicitation/complete`) is one; the user-interaction
 * proposal (`interaction/create`, -32003, `interaction/track`) is another. A source reads its wire
 * form through `McpClient` and hands neutral `ReceivedHandoff`s to the host; the host does the rest
 * (URL checks, consent, waiting, retrying) the same way for all of them.
 */
import type { McpClient } from "../../client/index.js";
import type { InteractionAnswer, ReceivedHandoff } from "./interaction.js";

/** What a source may ask of the `HandoffClient` it is plugged into. */
export interface HandoffHost {
  /**
   * Puts a hand-off the server asked for during a request to the user. Resolves with the answer to
   * send back; a refused URL resolves `decline` without asking. `signal` is the server's request
   * signal (aborted when the server cancels).
   */
  present(handoff: ReceivedHandoff, signal: AbortSignal): Promise<InteractionAnswer>;
  /** The server reports the hand-off `id` finished. Unknown ids are kept briefly, then forgotten. */
  complete(id: string): void;
  /**
   * A hand-off carried in an `InputRequiredResult` (stateless era): the user is asked once per
   * call and URL (`waiting` is true for the repeats, which are not put to the user again); after
   * consent it resolves when the user says they are done or after a poll interval, so that the
   * retry that follows tells the server. Resolves `cancel` once the hand-off's time is up.
   */
  presentInRound(handoff: ReceivedHandoff, waiting: boolean, signal: AbortSignal): Promise<InteractionAnswer>;
}

export interface HandoffSource {
  /** Registers the source's handlers on `client`. Called once, before the client connects. */
  install(client: McpClient, host: HandoffHost): void;
  /**
   * The hand-offs that an error thrown by a request says must happen before a retry, or
   * `undefined` when the error is not this source's.
   */
  required(error: unknown): ReceivedHandoff[] | undefined;
  /**
   * Called once the user accepted a hand-off of this source's kind, for wire forms in which the
   * client asks to hear about completion (e.g. `interaction/track`); it then calls
   * `host.complete`. Stops when `signal` aborts. Sources whose completion simply arrives omit it.
   */
  follow?(handoff: ReceivedHandoff, host: HandoffHost, signal: AbortSignal): void;
}
