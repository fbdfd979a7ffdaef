/**
 * A scripted browser: fetch with a cookie jar (per host, path-scoped, Max-Age=0 deletes) that
 * follows redirects itself, so every hop's cookies are kept, and submits oidc-provider's
 * development login and consent pages, and the connect pages' confirmation when it names the
 * account the browser's user signed in as. Pages are read by their forms' field names, not their wording.
 */
import { visibleText } from "./user-agent.js";

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

/** The attributes of each `<tag ...>` in `html`, names lower-cased, values unescaped (`&amp;`, `&quot;`, `&#N;`). */
export function tagsOf(html: string, tag: string): Record<string, string>[] {
  const found: Record<string, string>[] = [];
  for (const [, inside = ""] of html.matchAll(new RegExp(`<${tag}\\b([^>]*)>`, "gi"))) {
    const attributes: Record<string, string> = {};
    for (const [, name = "", dq, sq, bare] of inside.matchAll(
      /([^\s=/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g,
    )) {
      attributes[name.toLowerCase()] = decodeAttribute(dq ?? sq ?? bare ?? "");
    }
    found.push(attributes);
  }
  return found;
}

function decodeAttribute(text: string): string {
  return text
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");
}

/**
 * The connect pages' confirmation, found by its form's fields (a button or input
 * `action=connect` beside a `csrf` field), not by its wording: the question (the first heading,
 * as text), the page's text, and the token its form posts.
 */
export function confirmationOf(html: string): { question: string; text: string; csrf: string } | undefined {
  const form = html
    .split(/<form\b/i)
    .slice(1)
    .find((part) =>
      [...tagsOf(part, "button"), ...tagsOf(part, "input")].some((f) => f.name === "action" && f.value === "connect"),
    );
  const csrf = form === undefined ? undefined : tagsOf(form, "input").find((f) => f.name === "csrf")?.value;
  if (csrf === undefined) return undefined;
  const heading = /<h1\b[^>]*>([\s\S]*?)<\/h1\s*>/i.exec(html)?.[1] ?? "";
  const question = decodeAttribute(heading.replace(/<[^>]*>/g, ""))
    .replace(/\s+/g, " ")
    .trim();
  return { question, text: visibleText(html.replace(/<h1\b/i, "<p").replace(/<\/h1\s*>/i, "</p>")), csrf };
}

/** The login or consent form of an oidc-provider development page: its `prompt` and where it posts. */
export function promptOf(html: string): { prompt: "login" | "consent"; action: string } | undefined {
  const prompt = tagsOf(html, "input").find((f) => f.name === "prompt")?.value;
  const action = tagsOf(html, "form")[0]?.action;
  if ((prompt !== "login" && prompt !== "consent") || action === undefined) return undefined;
  return { prompt, action };
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
        // The user checks that the page names their own account, wherever on the page it says so.
        if (!confirmation.text.includes(login)) return page;
        page = await this.go(page.url, { form: { csrf: confirmation.csrf, action: "connect" } }, stopBefore);
        continue;
      }
      const form = promptOf(page.text);
      if (form === undefined) return page;
      const { prompt, action } = form;
      const target = new URL(action, page.url).href;
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
