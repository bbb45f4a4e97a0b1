// Serves the built SPA from DIST_DIR: hashed assets cached for a year, index.html never cached,
// and index.html for every app path (deep links such as /settings/language/ or
// /reset-pass/MQ/abc-123 load the app, which then routes on the client).
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** The path and the query (with its '?', or '') of a request URL. */
function splitUrl(url: string): [string, string] {
  const at = url.indexOf('?');
  return at === -1 ? [url, ''] : [url.slice(0, at), url.slice(at)];
}

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';
const SHORT = 'public, max-age=3600';

export interface Spa {
  register(app: FastifyInstance): Promise<void>;
  /** Answers with index.html, or null when the path names a file that does not exist. */
  fallback(request: FastifyRequest, reply: FastifyReply): FastifyReply | null;
}

/** null when there is no built SPA (e.g. the API alone during development, or tests). */
export function createSpa(distDir: string): Spa | null {
  if (!existsSync(path.join(distDir, 'index.html'))) return null;

  function cacheControl(filePath: string): string {
    // preCompressed hands us the .br or .gz it sends: the variant is cached as its original.
    const original = filePath.replace(/\.(br|gz)$/, '');
    const relative = path.relative(distDir, original).split(path.sep).join('/');
    if (relative.startsWith('assets/')) return IMMUTABLE;
    if (relative === 'index.html') return REVALIDATE;
    return SHORT;
  }

  const sendIndex = (reply: FastifyReply) =>
    reply.header('cache-control', REVALIDATE).type('text/html; charset=utf-8').sendFile('index.html');

  return {
    async register(app) {
      await app.register(fastifyStatic, {
        root: distDir,
        prefix: '/',
        wildcard: true,
        index: false,
        cacheControl: false,
        dotfiles: 'ignore',
        // The build writes a .br and a .gz beside each text file: send those to browsers that
        // accept them instead of compressing on every request (or not at all).
        preCompressed: true,
        setHeaders: (reply, filePath) => {
          reply.header('cache-control', cacheControl(filePath));
        },
        // The API's unknown paths stay JSON 404s.
        allowedPath: (pathName) => !pathName.startsWith('/api/'),
      });
      // The root is a directory to @fastify/static; it is the app's entry page to us.
      app.get('/', (_request, reply) => sendIndex(reply));
    },
    fallback(request, reply) {
      const [pathname, query] = splitUrl(request.url);
      const last = pathname.split('/').pop() ?? '';
      // A missing /assets/app-123.js must be a 404, not HTML served as JavaScript.
      if (pathname.startsWith('/assets/') || last.includes('.')) return null;
      // Every app path ends with a slash (spec §2): a typed /content/dashboard becomes
      // /content/dashboard/ with its query, permanently (only GET and HEAD come here).
      if (!pathname.endsWith('/')) return reply.redirect(`${pathname}/${query}`, 301);
      return sendIndex(reply);
    },
  };
}
