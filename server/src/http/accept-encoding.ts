/** A content coding the server sends: the two every browser accepts, or none. */
export type ContentCoding = 'br' | 'gzip' | 'identity';

/**
 * The codings an `Accept-Encoding` header allows, best first (RFC 9110 section 12.5.3): the
 * highest q-value wins, ties go to br, then gzip, then identity; `q=0` refuses a coding, `*` stands
 * for every coding not named (identity included), and identity, unless refused, comes after the
 * codings the client named. No header: identity only. A header that refuses everything still gets
 * identity (a 406 would only break the page).
 */
export function negotiateEncoding(header: string | undefined): ContentCoding[] {
  if (header === undefined) return ['identity'];
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [rawName, ...params] = part.split(';');
    let name = rawName!.trim().toLowerCase();
    if (!name) continue;
    if (name === 'x-gzip') name = 'gzip';
    let weight = 1;
    for (const param of params) {
      const match = /^\s*q\s*=\s*([0-9](?:\.[0-9]{0,3})?)\s*$/i.exec(param);
      if (match) weight = Math.min(1, Number(match[1]));
    }
    // The same coding named twice: the first mention counts.
    if (!q.has(name)) q.set(name, weight);
  }
  const star = q.get('*');
  // Identity not named (nor covered by `*`) stays acceptable, after every coding the client did name.
  const weightOf = (coding: ContentCoding): number => q.get(coding) ?? star ?? (coding === 'identity' ? 0.0001 : 0);
  const order: ContentCoding[] = ['br', 'gzip', 'identity'];
  const ranked = order
    .map((coding, rank) => ({ coding, rank, weight: weightOf(coding) }))
    .filter((c) => c.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.rank - b.rank)
    .map((c) => c.coding);
  return ranked.includes('identity') ? ranked : [...ranked, 'identity'];
}
