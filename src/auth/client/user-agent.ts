/**
 * The user-agent step of the authorization code flow (OAuth 2.1 § 4.1.1): whoever takes the
 * authorization URL to the authorization server and brings the redirect back. A person uses a
 * browser and the loopback listener; an authorization server that approves without asking (a
 * test double, a trusted automation setup) can be driven by plain HTTP requests.
 */
import { LoginError } from "./errors.js";
import { startLoopbackRedirect } from "./loopback.js";

/** One authorization in progress: the redirect URI to register and send, and the wait for it. */
export interface AuthorizationAttempt {
  /** The `redirect_uri` of this attempt; it goes into registration, the request and the code exchange. */
  readonly redirectUri: string;
  /**
   * Takes `url` (the complete authorization request) to the authorization server and hands the
   * redirect that comes back (its full URL, with `code`, `state`, maybe `iss`) to `finish`.
   * `context.issuer` is the authorization server's issuer, for display.
   * @returns what `finish` returns.
   * @throws what `finish` throws; LoginError "timeout" when nothing comes back before `signal` aborts.
   */
  authorize<T>(url: URL, finish: (callback: URL) => Promise<T>, context: AuthorizeContext): Promise<T>;
  /** Frees what the attempt holds (a listener); called once, whatever happened. */
  close(): Promise<void>;
}

/** What an attempt is told besides the URL. */
export interface AuthorizeContext {
  /** Aborts the wait (a timeout, the caller giving up). */
  signal: AbortSignal;
  /** The authorization server's issuer identifier. */
  issuer: string;
}

/** Starts authorization attempts; see {@link loopbackUserAgent} and {@link redirectFollowingUserAgent}. */
export interface AuthorizationUserAgent {
  begin(): Promise<AuthorizationAttempt>;
}

/**
 * A person's browser: a loopback listener on 127.0.0.1 (RFC 8252 § 7.3) receives the redirect;
 * `openUrl` shows the authorization URL (opens the browser or prints the link).
 */
export function loopbackUserAgent(
  openUrl: (url: string, info: { issuer: string }) => Promise<void>,
): AuthorizationUserAgent {
  return {
    async begin() {
      const listener = await startLoopbackRedirect();
      return {
        redirectUri: listener.redirectUri,
        async authorize(url, finish, { signal, issuer }) {
          const received = listener.receive(finish, signal);
          // The browser may come back before `openUrl` resolves; a failure is reported below, not lost.
          received.catch(() => {});
          await openUrl(url.href, { issuer });
          try {
            return await received;
          } catch (error) {
            if (error instanceof LoginError) throw error;
            throw new LoginError("timeout", "The browser did not come back to the authorization in time", {
              cause: error,
            });
          }
        },
        close: () => listener.close(),
      };
    },
  };
}

/** How many redirects {@link redirectFollowingUserAgent} follows before giving up. */
const MAX_REDIRECTS = 10;

/**
 * No person involved: GETs the authorization URL and follows the authorization server's
 * redirects (at most 10) until one leads to `redirectUri`, which is not requested but handed to
 * `finish`. Only for authorization servers that approve without a login page.
 * @param redirectUri registered as the client's redirect URI; never contacted.
 * @throws (from `authorize`) LoginError "denied" when the server answers with anything but a
 *   redirect (a login page, an error), "timeout" when `signal` aborts.
 */
export function redirectFollowingUserAgent(
  redirectUri: string,
  fetchFn: typeof fetch = (input, init) => fetch(input, init),
): AuthorizationUserAgent {
  const target = new URL(redirectUri);
  return {
    begin: async () => ({
      redirectUri,
      async authorize(url, finish, { signal }) {
        let next = url;
        for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
          let response: Response;
          try {
            response = await fetchFn(next, { redirect: "manual", signal });
          } catch (error) {
            if (signal.aborted) throw new LoginError("timeout", "The authorization was aborted", { cause: error });
            throw new LoginError("denied", `Could not reach ${next.origin}`, { cause: error });
          }
          await response.body?.cancel();
          const location = response.headers.get("location");
          if (response.status < 300 || response.status >= 400 || location === null) {
            throw new LoginError(
              "denied",
              `The authorization server answered HTTP ${response.status} instead of redirecting; it needs a person`,
            );
          }
          next = new URL(location, next);
          if (next.origin === target.origin && next.pathname === target.pathname) return finish(next);
        }
        throw new LoginError("denied", "The authorization server redirected too often");
      },
      close: async () => {},
    }),
  };
}
