/**
 * A scripted browser: fetch with a cookie jar (per host, path-scoped, Max-Age=0 deletes) that
 * follows redirects itself, so every hop's cookies are kept, and submits oidc-provider's
 * development login and consent pages, and the connect pages' confirmation when it names the
 * account the browser's user signed in as.
 */

/** What one request may carry besides cookies. */
export interface RequestInit {
  method?: string;
  form?: Record<string, string>;
  /** Extra request headers, e.g. `Origin` or `Sec-Fetch-Site` as a browser would send them. */
  headers?: Record<string, string>;
  /**
   * The `Origin` of a form post unless `headers` names one: by default the target's own, as a
   * browser sends with a page's own form; `null` sends none, as browsers before 2019 did.
   */
  origin?: string | null;
}

/** The connect pages' confirmation: its question (the heading, unescaped) and the token its form posts. */
export function confirmationOf(html: string): { question: string; csrf: string } | undefined {
  const form = html.split("<form").find((part) => part.includes('name="action" value="connect"'));
  const csrf = form === undefined ? undefined : /name="csrf" value="([^"]+)"/.exec(form)?.[1];
  const heading = /<h1>([^<]*)<\/h1>/.exec(html)?.[1];
  if (csrf === undefined || heading === undefined) return undefined;
  return { question: heading.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))), csrf };
}

interface Cookie {
  name: string;
  value: string;
  path: string;
  secure: boolean;
  httpOnly: boolean;
  sameSite: string | undefined;
}

export interface Hop {
  url: string;
  status: number;
  setCookies: string[];
}

export class Browser {
  readonly jar = new Map<string, Map<string, Cookie>>();
  readonly hops: Hop[] = [];

  cookies(host: string): Cookie[] {
    return [...(this.jar.get(host)?.values() ?? [])];
  }

  /** Stores a cookie as if `url` had set it with `header`, e.g. one planted by another site. */
  setCookie(url: string, header: string): void {
    this.#store(new URL(url), header);
  }

  #store(url: URL, header: string): void {
    const [pair = "", ...attributes] = header.split(";").map((part) => part.trim());
    const eq = pair.indexOf("=");
    const cookie: Cookie = {
      name: pair.slice(0, eq),
      value: pair.slice(eq + 1),
      path: "/",
      secure: false,
      httpOnly: false,
      sameSite: undefined,
    };
    let remove = false;
    for (const attribute of attributes) {
      const [key = "", value = ""] = attribute.split("=");
      const name = key.toLowerCase();
      if (name === "path") cookie.path = value;
      else if (name === "secure") cookie.secure = true;
      else if (name === "httponly") cookie.httpOnly = true;
      else if (name === "samesite") cookie.sameSite = value;
      else if (name === "max-age" && Number(value) <= 0) remove = true;
      else if (name === "expires" && Date.parse(value) < Date.now()) remove = true;
    }
    const host = url.host;
    const cookies = this.jar.get(host) ?? new Map<string, Cookie>();
    this.jar.set(host, cookies);
    if (remove) cookies.delete(`${cookie.name}|${cookie.path}`);
    else cookies.set(`${cookie.name}|${cookie.path}`, cookie);
  }

  #cookieHeader(url: URL): string {
    return this.cookies(url.host)
      .filter((c) => url.pathname === c.path || url.pathname.startsWith(c.path.endsWith("/") ? c.path : `${c.path}/`))
      .map((c) => `${c.name}=${c.value}`)
      .join("; ");
  }

  /** One request, without following redirects. */
  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const target = new URL(url);
    const headers = new Headers(init.headers);
    const cookie = this.#cookieHeader(target);
    if (cookie) headers.set("cookie", cookie);
    let body: URLSearchParams | undefined;
    if (init.form) {
      body = new URLSearchParams(init.form);
      headers.set("content-type", "application/x-www-form-urlencoded");
      const origin = init.origin === undefined ? target.origin : init.origin;
      if (origin !== null && !headers.has("origin")) headers.set("origin", origin);
    }
    const response = await fetch(target, {
      method: init.method ?? (body ? "POST" : "GET"),
      headers,
      body,
      redirect: "manual",
    });
    const setCookies = response.headers.getSetCookie();
    for (const header of setCookies) this.#store(target, header);
    this.hops.push({ url: target.href, status: response.status, setCookies });
    return response;
  }

  /** Requests `url` and follows redirects; resolves with the final response and its URL. */
  async go(
    url: string,
    init: RequestInit = {},
    stopBefore?: (url: URL) => boolean,
  ): Promise<{ response: Response; url: string; text: string }> {
    let current = url;
    let response = await this.request(current, init);
    for (let i = 0; i < 20 && response.status >= 300 && response.status < 400; i++) {
      const location = response.headers.get("location");
      if (location === null || stopBefore?.(new URL(location, current))) break;
      await response.body?.cancel();
      current = new URL(location, current).href;
      response = await this.request(current);
    }
    return { response, url: current, text: await response.text() };
  }

  /**
   * Goes to `url` and, while the page is an oidc-provider development login or consent page,
   * logs in as `login` and consents; on the connect pages' confirmation it confirms when the
   * question names `login` (as the user checks that it names their own account). Resolves with
   * the first page that is none of these, or a confirmation naming someone else.
   */
  async goSigningIn(
    url: string,
    login: string,
    stopBefore?: (url: URL) => boolean,
  ): Promise<{ response: Response; url: string; text: string }> {
    let page = await this.go(url, {}, stopBefore);
    for (let i = 0; i < 8; i++) {
      const confirmation = confirmationOf(page.text);
      if (confirmation !== undefined) {
        if (!confirmation.question.includes(login)) return page;
        page = await this.go(page.url, { form: { csrf: confirmation.csrf, action: "connect" } }, stopBefore);
        continue;
      }
      const prompt = /name="prompt" value="(login|consent)"/.exec(page.text)?.[1];
      const action = /<form[^>]*action="([^"]+)"/.exec(page.text)?.[1];
      if (prompt === undefined || action === undefined) return page;
      const target = new URL(action.replaceAll("&amp;", "&"), page.url).href;
      page = await this.go(
        target,
        {
          form: prompt === "login" ? { prompt, login, password: "any" } : { prompt },
        },
        stopBefore,
      );
    }
    return page;
  }
}
