/** The small part of `oidc-provider` (which ships no types) that the full demo and the connect tests use. */
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  interface ClientLike {
    grantTypeAllowed(type: string): boolean;
  }
  interface TokenLike {
    accountId: string;
    isExpired: boolean;
    destroy(): Promise<void>;
  }
  interface TokenClass {
    find(value: string): Promise<TokenLike | undefined>;
  }

  export default class Provider {
    constructor(
      issuer: string,
      configuration: Record<string, unknown> & {
        findAccount?: (ctx: unknown, id: string) => unknown;
        issueRefreshToken?: (ctx: unknown, client: ClientLike) => Promise<boolean>;
      },
    );
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    /** Koa middleware around every request. */
    use(
      middleware: (
        ctx: {
          path: string;
          status: number;
          body: unknown;
          oidc?: { entities?: { AccessToken?: TokenLike; RefreshToken?: TokenLike } };
          response: { get(name: string): string };
          set(name: string, value: string): void;
        },
        next: () => Promise<void>,
      ) => Promise<void>,
    ): void;
    AccessToken: TokenClass;
    RefreshToken: TokenClass;
  }
}
