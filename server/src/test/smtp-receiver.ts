/** A real SMTP receiver on loopback (smtp-server) that keeps every message it is given, raw. */
import { SMTPServer } from 'smtp-server';

export interface SmtpReceiver {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  url: string;
  /** Each message as received, decoded with the receiver's encoding. */
  received: string[];
  close(): Promise<void>;
}

export async function startSmtpReceiver(encoding: BufferEncoding = 'utf8'): Promise<SmtpReceiver> {
  const received: string[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, done) {
      let data = '';
      stream.on('data', (chunk: Buffer) => (data += chunk.toString(encoding)));
      stream.on('end', () => {
        received.push(data);
        done();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as { port: number }).port;
  return { url: `smtp://127.0.0.1:${port}`, received, close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) };
}
