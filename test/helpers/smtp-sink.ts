/** A mail sink on loopback that speaks just enough SMTP for nodemailer to hand it a mail, and keeps what it got. */
import { createServer as createNetServer, type AddressInfo } from 'node:net';

export interface SunkMail {
  from: string;
  to: string[];
  data: string;
}

/** The least of an SMTP server a client needs to hand over one mail: greeting, EHLO, MAIL, RCPT, DATA, QUIT. */
export async function startSmtpSink(): Promise<{ url: string; mails: SunkMail[]; close(): Promise<void> }> {
  const mails: SunkMail[] = [];
  const server = createNetServer((socket) => {
    let mail: SunkMail = { from: '', to: [], data: '' };
    let inData = false;
    let buffer = '';
    socket.write('220 sink ESMTP\r\n');
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          mail.data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          mails.push(mail);
          mail = { from: '', to: [], data: '' };
          socket.write('250 queued\r\n');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'MAIL') mail.from = line;
        if (verb === 'RCPT') mail.to.push(line);
        if (verb === 'DATA') inData = true;
        if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write(verb === 'DATA' ? '354 go on\r\n' : '250 ok\r\n');
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
