/**
 * The handlers set on a client (elicitation, sampling, roots, the user-interaction proposal's
 * `interaction/create`), as the request handlers read them when a request arrives, and the
 * capabilities they make the client declare.
 */
import { SdkError } from "../jsonrpc/errors.js";
import type { Params, Result } from "../jsonrpc/session.js";
import type { ElicitationRegistration, HandlerHost } from "./handlers.js";
import { ElicitationTracker } from "./notifications.js";
import type { SamplingHandlerOptions } from "./options.js";
import type {
  ClientCapabilities,
  ElicitationHandler,
  ElicitationMode,
  Implementation,
  RootsHandler,
  SamplingHandler,
  ServerRequestContext,
  UserInteractionHandler,
} from "./types.js";

/** What the registry reads from the client at the time a request arrives. */
export interface RegistryHost {
  /** The capabilities this client declared in `initialize`. */
  readonly declared: ClientCapabilities;
  readonly serverInfo: Implementation | undefined;
  checkAnswer(method: string, params: Params, result: Result): SdkError | undefined;
  report(error: Error): void;
  refused(reason: string, ctx: ServerRequestContext): void;
}

export class HandlerRegistry implements HandlerHost {
  elicitation: ElicitationRegistration | undefined;
  samplingRegistration: { handler: SamplingHandler; options: SamplingHandlerOptions } | undefined;
  roots: RootsHandler | undefined;
  userInteraction: UserInteractionHandler | undefined;
  /** URL-mode elicitations the client is waiting on (accepted, or listed in -32042 errors). */
  readonly elicitations = new ElicitationTracker();

  constructor(private readonly host: RegistryHost) {}

  /** @throws SdkError "INVALID_ARGUMENT" when `modes` is empty or names an unknown mode. */
  setElicitation(handler: ElicitationHandler, modes: readonly ElicitationMode[]): void {
    if (modes.length === 0 || modes.some((mode) => mode !== "form" && mode !== "url")) {
      throw new SdkError(
        "INVALID_ARGUMENT",
        `Elicitation modes must be "form" and/or "url", got ${JSON.stringify(modes)}`,
      );
    }
    this.elicitation = { handler, modes: [...modes] };
  }

  get sampling(): SamplingHandler | undefined {
    return this.samplingRegistration?.handler;
  }

  get declared(): ClientCapabilities {
    return this.host.declared;
  }

  get serverInfo(): Implementation | undefined {
    return this.host.serverInfo;
  }

  checkAnswer(method: string, params: Params, result: Result): SdkError | undefined {
    return this.host.checkAnswer(method, params, result);
  }

  report(error: Error): void {
    this.host.report(error);
  }

  refused(reason: string, ctx: ServerRequestContext): void {
    this.host.refused(reason, ctx);
  }

  /** The capabilities to declare: `configured` as is when given, else derived from the handlers set. */
  capabilities(configured: ClientCapabilities | undefined): ClientCapabilities {
    if (configured) return configured;
    const capabilities: ClientCapabilities = {};
    if (this.elicitation) {
      capabilities.elicitation = Object.fromEntries(this.elicitation.modes.map((mode) => [mode, {}]));
    }
    if (this.samplingRegistration) {
      const { tools, context } = this.samplingRegistration.options;
      capabilities.sampling = { ...(tools ? { tools: {} } : {}), ...(context ? { context: {} } : {}) };
    }
    if (this.roots) capabilities.roots = { listChanged: true };
    // An extension capability, which the generated shape of ClientCapabilities does not name.
    if (this.userInteraction) (capabilities as Record<string, unknown>).userInteraction = { types: ["ua"] };
    return capabilities;
  }
}
