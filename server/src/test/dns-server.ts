/**
 * A tiny authoritative DNS server on loopback UDP that answers TXT questions from a map: the DNS
 * boundary of SSO domain validation in tests. The server under test really resolves, through
 * SSO_DNS_SERVERS=127.0.0.1:<port>; only the zone data is the test's.
 */
import { createSocket, type Socket } from 'node:dgram';
import type { AddressInfo } from 'node:net';

export interface TestDns {
  /** `127.0.0.1:<port>`, for SSO_DNS_SERVERS. */
  address: string;
  /** Sets the TXT records of a name (lowercased); an empty list removes it (NXDOMAIN). */
  setTxt(name: string, records: string[]): void;
  /** How many questions it answered (to tell a lookup happened). */
  readonly queries: number;
  stop(): Promise<void>;
}

const TXT = 16;

function readName(msg: Buffer, offset: number): { name: string; end: number } {
  const labels: string[] = [];
  let at = offset;
  while (msg[at] !== 0) {
    const len = msg[at]!;
    labels.push(msg.subarray(at + 1, at + 1 + len).toString('ascii'));
    at += 1 + len;
  }
  return { name: labels.join('.').toLowerCase(), end: at + 1 };
}

function answer(query: Buffer, zone: Map<string, string[]>): Buffer {
  const { name, end } = readName(query, 12);
  const type = query.readUInt16BE(end);
  const question = query.subarray(12, end + 4);
  const records = zone.get(name);
  const answers = type === TXT && records ? records : [];
  const header = Buffer.alloc(12);
  header.writeUInt16BE(query.readUInt16BE(0), 0);
  // QR, AA, RD copied, RA; NXDOMAIN (3) for a name the zone does not have.
  header.writeUInt16BE(0x8400 | (query.readUInt16BE(2) & 0x0100) | 0x0080 | (records ? 0 : 3), 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(answers.length, 6);
  const parts = [header, question];
  for (const text of answers) {
    const chunks: Buffer[] = [];
    for (let i = 0; i < text.length || i === 0; i += 255) {
      const chunk = Buffer.from(text.slice(i, i + 255), 'utf8');
      chunks.push(Buffer.from([chunk.length]), chunk);
    }
    const rdata = Buffer.concat(chunks);
    const rr = Buffer.alloc(12);
    rr.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
    rr.writeUInt16BE(TXT, 2);
    rr.writeUInt16BE(1, 4); // class IN
    rr.writeUInt32BE(60, 6);
    rr.writeUInt16BE(rdata.length, 10);
    parts.push(rr, rdata);
  }
  return Buffer.concat(parts);
}

export async function startTestDns(): Promise<TestDns> {
  const zone = new Map<string, string[]>();
  let queries = 0;
  const socket: Socket = createSocket('udp4');
  socket.on('message', (msg, peer) => {
    queries += 1;
    try {
      socket.send(answer(msg, zone), peer.port, peer.address);
    } catch {
      // A malformed question gets no answer, as from a real server.
    }
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    setTxt(name, records) {
      if (records.length) zone.set(name.toLowerCase(), records);
      else zone.delete(name.toLowerCase());
    },
    get queries() {
      return queries;
    },
    stop: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
