/**
 * The `cursor` query parameter of the users list and the audit log (issue 17): keyset pagination for
 * deep pages. A cursor is opaque to clients: they pass back the `nextCursor` or `prevCursor` of an
 * earlier answer unchanged. Only its alphabet is checked here; the server decodes it and refuses a
 * cursor of another list, sort or filter.
 */
import { z } from 'zod';

/** base64url, at most 2,048 characters. */
export const ListCursorParam = z
  .string()
  .trim()
  .min(1)
  .max(2048)
  .regex(/^[A-Za-z0-9_-]+$/, 'must be the nextCursor or prevCursor of an earlier answer of this list, unchanged')
  .describe('Keyset pagination: the nextCursor (the page after) or prevCursor (the page before) of an earlier answer with the same sort and filters. Replaces the offset: give one or the other.');

/**
 * Where the answer's neighbours start: null at either end of the list. The server always sends both;
 * optional in the schema because other producers of these answers (the portal's preview API) page by offset only.
 */
export const ListCursors = {
  nextCursor: z.string().nullable().optional().describe('The cursor of the next page (give it as `cursor`); null on the last page'),
  prevCursor: z.string().nullable().optional().describe('The cursor of the previous page (give it as `cursor`); null on the first page'),
};
