import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { OptionsService } from '../domains/options/options.service.ts';

/*
 * The console's index.html with the operator's branding and custom code put in
 * at serve time (system name, custom head HTML, global CSS and JS), and the
 * Content-Security-Policy that lets exactly that custom code run: inline scripts
 * by their hash, external scripts by their origin. Rebuilt when options change.
 */

export interface ConsolePage {
  html: string;
  csp: string;
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const sha256 = (s: string) => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;
const originOf = (url: string) => {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.origin : undefined;
  } catch {
    return undefined;
  }
};

/** Inline script bodies and external script origins found in the operator's head HTML. */
function scriptSources(headHtml: string): { hashes: string[]; origins: string[] } {
  const hashes: string[] = [];
  const origins: string[] = [];
  for (const m of headHtml.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const src = /\bsrc\s*=\s*["']?([^"'\s>]+)/i.exec(m[1])?.[1];
    if (src) {
      const origin = originOf(src);
      if (origin) origins.push(origin);
    } else if (m[2].trim() !== '') {
      hashes.push(sha256(m[2]));
    }
  }
  return { hashes, origins };
}

export function renderConsolePage(template: string, options: OptionsService): ConsolePage {
  const head: string[] = [];
  const scriptSrc = new Set<string>(["'self'"]);
  const headHtml = options.get('HeadHTML');
  const css = options.get('GlobalCSS');
  const js = options.get('GlobalJS');
  if (headHtml.trim()) {
    head.push(headHtml);
    const found = scriptSources(headHtml);
    for (const s of [...found.hashes, ...found.origins]) scriptSrc.add(s);
  }
  // Closing tags inside the operator's code would end our element early.
  if (css.trim()) head.push(`<style id="switchyard-global-css">${css.replace(/<\/style/gi, '<\\/style')}</style>`);
  if (js.trim()) {
    const body = js.replace(/<\/script/gi, '<\\/script');
    head.push(`<script id="switchyard-global-js">${body}</script>`);
    scriptSrc.add(sha256(body));
  }
  if (options.get('TurnstileCheckEnabled')) scriptSrc.add('https://challenges.cloudflare.com');
  if (options.get('TelegramOAuthEnabled')) scriptSrc.add('https://telegram.org');

  const formAction = new Set<string>(["'self'"]);
  const pay = originOf(options.get('PayAddress'));
  if (pay) formAction.add(pay);

  const csp = [
    "default-src 'self'",
    `script-src ${[...scriptSrc].join(' ')}`,
    // Mantine sets style attributes at run time.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https: http:",
    "font-src 'self' data:",
    "connect-src 'self'",
    // Home/about pages and chat links may embed the operator's URLs; Turnstile runs in a frame.
    'frame-src https: http:',
    `form-action ${[...formAction].join(' ')}`,
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'self'",
  ].join('; ');

  const title = escapeHtml(options.get('SystemName') || 'Switchyard');
  const html = template
    .replace(/<title>[^<]*<\/title>/, `<title>${title}</title>`)
    .replace('</head>', `${head.join('\n')}\n</head>`);
  return { html, csp };
}

interface RouteChunks {
  routes: { path: string; scripts: string[]; styles: string[] }[];
  catalog?: string;
}

/** '/chat/:id?' -> a RegExp matching the URL paths React Router sends to that route. */
const routePattern = (p: string) =>
  new RegExp(`^${p.replace(/\/:[^/]+\?/g, '(?:/[^/]+)?').replace(/:[^/]+/g, '[^/]+')}/?$`);

/**
 * The preload links for a URL path, from route-chunks.json (written by the build, scripts/console-build.ts): the
 * opened page's own chunks and styles and the default catalog, so the browser fetches them with the entry instead
 * of after it has run (issue 45). A build without the file, or a path no route has, preloads only the catalog.
 */
function routePreloads(clientDist: string): (urlPath: string) => { key: string; links: string } {
  let map: RouteChunks = { routes: [] };
  try {
    map = JSON.parse(readFileSync(path.join(clientDist, 'route-chunks.json'), 'utf8')) as RouteChunks;
  } catch {
    // A console built before the map existed: nothing more to preload.
  }
  const routes = map.routes.map((r) => ({ ...r, pattern: routePattern(r.path) }));
  const attr = (s: string) => s.replace(/"/g, '&quot;');
  const script = (href: string) => `<link rel="modulepreload" crossorigin href="${attr(href)}">`;
  const style = (href: string) => `<link rel="preload" as="style" crossorigin href="${attr(href)}">`;
  return (urlPath) => {
    const route = routes.find((r) => r.pattern.test(urlPath));
    const links = [
      ...(route?.scripts ?? []).map(script),
      ...(route?.styles ?? []).map(style),
      ...(map.catalog ? [script(map.catalog)] : []),
    ];
    return { key: route?.path ?? '', links: links.join('\n') };
  };
}

/** Reads the built index.html once and keeps the rendered page per route until an option changes. */
export function createConsolePageCache(clientDist: string, options: OptionsService) {
  const template = readFileSync(path.join(clientDist, 'index.html'), 'utf8');
  const preloadsFor = routePreloads(clientDist);
  const cached = new Map<string, ConsolePage>();
  options.onChange(() => cached.clear());
  return (urlPath = '/'): ConsolePage => {
    const { key, links } = preloadsFor(urlPath);
    let page = cached.get(key);
    if (!page) {
      page = renderConsolePage(links ? template.replace('</head>', `${links}\n</head>`) : template, options);
      cached.set(key, page);
    }
    return page;
  };
}
