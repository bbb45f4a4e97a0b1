// A real SMTP server on a loopback port for the server tests: nodemailer talks SMTP to it, and the
// test reads what arrived, parsed.
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A real SMTP server on a loopback port that parses every message it accepts. */
export async function startSmtpListener() {
  const inbox: ParsedMail[] = [];
  const waiting: { to: string; resolve: (mail: ParsedMail) => void }[] = [];
  const recipients = (mail: ParsedMail) =>
    [mail.to ?? []].flat().flatMap((address) => address.value.map((v) => v.address?.toLowerCase()));
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          inbox.push(mail);
          for (const waiter of [...waiting]) {
            if (recipients(mail).includes(waiter.to)) {
              waiting.splice(waiting.indexOf(waiter), 1);
              waiter.resolve(mail);
            }
          }
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    inbox,
    /** Every mail that arrived for this address so far. */
    mailsTo: (address: string) => inbox.filter((mail) => recipients(mail).includes(address.toLowerCase())),
    receive(to: string, timeoutMs = 10_000): Promise<ParsedMail> {
      const already = inbox.find((mail) => recipients(mail).includes(to));
      if (already) return Promise.resolve(already);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no mail for ${to}`)), timeoutMs);
        waiting.push({ to, resolve: (mail) => (clearTimeout(timer), resolve(mail)) });
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type SmtpListener = Awaited<ReturnType<typeof startSmtpListener>>;
