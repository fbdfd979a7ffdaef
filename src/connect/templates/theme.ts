/**
 * What every connect page shows of who serves it: the MCP server's name and icon (its
 * `serverInfo`) and the operator's branding (name, logo, accent colour), checked once when the
 * handler is made, so a bad value fails at start-up rather than on a user's page.
 */
import { styleHash, stylesheet } from "./style.js";

/** The MCP server as its `serverInfo` names it (`Implementation`: `name`, optional `title` and `icons`). */
export interface PageServerInfo {
  name: string;
  title?: string;
  /** Only `data:` image URIs are shown (the pages load nothing); other icons are passed over. */
  icons?: readonly { src: string; mimeType?: string }[];
}

/** The operator's branding of the pages. */
export interface PageBranding {
  /** Shown at the top of every page; default the server's title or name. */
  name?: string;
  /**
   * A `data:image/(png|jpeg|gif|webp|svg+xml);base64,…` URI of at most 65,536 characters. Only
   * `data:` URIs: the pages load nothing from anywhere, so the link cannot be tracked or changed.
   */
  logo?: string;
  /**
   * `#rrggbb` (or `#rgb`): buttons, links and focus rings. It must have a contrast ratio of at
   * least 4.5:1 against white (WCAG 2.2 AA, 1.4.3), since white text sits on it; default `#1d4ed8`.
   */
  accentColor?: string;
}

/** A checked theme; made by `createPageTheme`, read by `renderPage`. */
export interface PageTheme {
  readonly brandName: string;
  readonly logo: string | undefined;
  readonly serverName: string;
  readonly serverIcon: string | undefined;
  readonly css: string;
  /** The CSP source allowing `css`. */
  readonly styleSource: string;
}

const DATA_IMAGE = /^data:image\/(?:png|jpeg|gif|webp|svg\+xml);base64,[A-Za-z0-9+/]+={0,2}$/;
const LONGEST_IMAGE = 65_536;
const DEFAULT_ACCENT = "#1d4ed8";

function isDataImage(src: string): boolean {
  return src.length <= LONGEST_IMAGE && DATA_IMAGE.test(src);
}

/** Relative luminance of an sRGB `#rrggbb` (WCAG 2.2 definition). */
function luminance(hex: string): number {
  const channel = (at: number) => {
    const c = Number.parseInt(hex.slice(at, at + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** The contrast ratio of `#rrggbb` against white, 1 to 21. */
export function contrastWithWhite(hex: string): number {
  return 1.05 / (luminance(hex) + 0.05);
}

/** `#rgb` or `#rrggbb` as lower-case `#rrggbb`, else `undefined`. */
function normalColour(value: string): string | undefined {
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(value);
  if (short) return `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`.toLowerCase();
  return /^#[0-9a-f]{6}$/i.test(value) ? value.toLowerCase() : undefined;
}

/** Control and format characters out (no bidi tricks), white space folded, at most 100 characters. */
function cleanName(name: string): string {
  const plain = name
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, "")
    .replace(/\s+/g, " ")
    .trim();
  return [...plain].slice(0, 100).join("");
}

/**
 * The pages' theme for one server and its operator's branding.
 * @throws RangeError when `branding.accentColor` is not `#rgb`/`#rrggbb` or has less than 4.5:1
 *   contrast against white, or `branding.logo` is not a base64 `data:` image URI of at most 65,536
 *   characters.
 */
export function createPageTheme(options: { server?: PageServerInfo; branding?: PageBranding } = {}): PageTheme {
  const { server, branding = {} } = options;
  const accent = normalColour(branding.accentColor ?? DEFAULT_ACCENT);
  if (accent === undefined) {
    throw new RangeError(`branding.accentColor must be #rgb or #rrggbb, got ${JSON.stringify(branding.accentColor)}`);
  }
  const ratio = contrastWithWhite(accent);
  if (ratio < 4.5) {
    throw new RangeError(
      `branding.accentColor ${accent} has a contrast of ${ratio.toFixed(2)}:1 against white; white button text needs at least 4.5:1 (pick a darker colour)`,
    );
  }
  if (branding.logo !== undefined && !isDataImage(branding.logo)) {
    throw new RangeError(
      "branding.logo must be a base64 data:image/(png|jpeg|gif|webp|svg+xml) URI of at most 65,536 characters",
    );
  }
  const serverName = cleanName(server?.title || server?.name || "") || "This server";
  const css = stylesheet(accent);
  return {
    brandName: cleanName(branding.name ?? "") || serverName,
    logo: branding.logo,
    serverName,
    serverIcon: server?.icons?.map((icon) => icon.src).find(isDataImage),
    css,
    styleSource: styleHash(css),
  };
}
