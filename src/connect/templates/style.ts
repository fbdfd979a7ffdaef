/**
 * The connect pages' one stylesheet, inlined in each page and allowed by its hash in the CSP
 * (`style-src 'sha256-…'`), so the pages load nothing from anywhere. The operator's accent colour
 * is its only variable part; the hash is computed once per theme.
 */
import { createHash } from "node:crypto";

/** The stylesheet with `accent` (a checked `#rrggbb`) as the accent colour. */
export function stylesheet(accent: string): string {
  return `:root{--accent:${accent};color-scheme:light}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#f3f4f6}
.brand{display:flex;align-items:center;gap:.75rem;padding:.75rem 1.25rem;background:#fff;border-bottom:4px solid var(--accent);font-weight:600}
.brand img{width:32px;height:32px;object-fit:contain}
main{max-width:38rem;margin:1.5rem auto;padding:1.5rem;background:#fff;border:1px solid #d1d5db;border-radius:12px}
h1{font-size:1.5rem;line-height:1.25;margin:0 0 1rem;overflow-wrap:anywhere}
p{margin:0 0 1rem}
.ask{border-left:4px solid var(--accent);background:#f9fafb;padding:.75rem 1rem;margin:0 0 1rem}
.ask p{margin:.25rem 0 0;overflow-wrap:anywhere}
.server{display:flex;align-items:center;gap:.5rem;font-weight:600;overflow-wrap:anywhere}
.server img{width:24px;height:24px;object-fit:contain}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.5rem 1rem;margin:1rem 0;padding:1rem 0 0;border-top:1px solid #e5e7eb}
dt{font-weight:600}
dd{margin:0;overflow-wrap:anywhere}
.note{color:#4b5563}
label{display:block;font-weight:600;margin:0 0 .25rem}
input[type=password]{display:block;width:100%;font:inherit;padding:.625rem .75rem;border:2px solid #6b7280;border-radius:8px;margin:0 0 1rem}
.actions{display:flex;flex-wrap:wrap;gap:.75rem;margin:0 0 1rem}
form{margin:0}
button{font:inherit;font-weight:600;padding:.5rem 1.25rem;min-height:44px;border-radius:8px;border:2px solid var(--accent);cursor:pointer}
.primary{background:var(--accent);color:#fff}
.secondary{background:#fff;color:#1a1a1a;border-color:#6b7280}
.link{background:none;border:0;padding:0;min-height:24px;color:var(--accent);text-decoration:underline;font-weight:400}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.entries{list-style:none;margin:0 0 1rem;padding:0}
.entry{border:1px solid #d1d5db;border-radius:8px;padding:1rem;margin:0 0 .75rem}
.entry h3{margin:0;font-size:1.125rem}
.entry dl{margin:.5rem 0;padding:.5rem 0 0}
h2{font-size:1.25rem;margin:1.5rem 0 .75rem}
.outcome{border-left:4px solid var(--accent);background:#f9fafb;padding:.75rem 1rem}
.table{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-size:.875rem}
th,td{text-align:left;padding:.375rem .5rem;border-bottom:1px solid #e5e7eb;vertical-align:top}
footer{max-width:38rem;margin:0 auto 2rem;padding:0 1.5rem;color:#4b5563;font-size:.875rem}
@media (max-width:480px){main{margin:0;border-radius:0;border-width:0 0 1px;padding:1.25rem 1rem}dl{grid-template-columns:1fr;gap:0 1rem}dd{margin:0 0 .5rem}.actions>*{flex:1 1 100%}.actions button{width:100%}}
`;
}

/** The CSP source that allows exactly `css` inline: `'sha256-<base64>'`. */
export function styleHash(css: string): string {
  return `'sha256-${createHash("sha256").update(css, "utf8").digest("base64")}'`;
}
