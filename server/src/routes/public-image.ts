import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { Errors } from '../errors';
import type { AppEnv } from '../http/env';
import { err } from './openapi';

/** An uploaded image as stored: its bytes and its (checked) media type. */
export interface StoredImage {
  bytes: Uint8Array | Buffer;
  mime: string;
}

/**
 * Registers `GET path` serving an uploaded image by its 32-hex id, for anyone: immutable (a new
 * upload gets a new id), sandboxed by CSP and nosniff so an image can never run as a page, and
 * loadable cross-origin (login boxes and portals are embedded on other sites).
 */
export function publicImageRoute(app: OpenAPIHono<AppEnv>, path: string, summary: string, get: (id: string) => Promise<StoredImage | null | undefined>): void {
  app.openapi(
    createRoute({
      method: 'get',
      path,
      tags: ['public'],
      summary,
      request: { params: z.object({ logoId: z.string().regex(/^[0-9a-f]{32}$/) }) },
      responses: { 200: { description: 'The image bytes' }, 404: err('No such logo') },
    }),
    async (c) => {
      const image = await get(c.req.valid('param').logoId);
      if (!image) throw Errors.notFound();
      return c.body(new Uint8Array(image.bytes), 200, {
        'Content-Type': image.mime,
        'Cache-Control': 'public, max-age=31536000, immutable',
        'Content-Security-Policy': "default-src 'none'; sandbox",
        'Cross-Origin-Resource-Policy': 'cross-origin',
        'X-Content-Type-Options': 'nosniff',
      });
    },
  );
}
