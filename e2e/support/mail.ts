// Reads the e-mails the server wrote to its outbox (DATA_DIR/outbox/*.eml), as a person would
// read their inbox: the newest mail to an address, and the links in it.
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { OUTBOX_DIR } from './env';

export interface ReceivedMail {
  subject: string;
  text: string;
  links: string[];
}

async function mailsTo(address: string, since: number): Promise<Array<{ mtime: number; mail: ReceivedMail }>> {
  let names: string[] = [];
  try {
    names = (await readdir(OUTBOX_DIR)).filter((n) => n.endsWith('.eml'));
  } catch {
    return [];
  }
  const found = [];
  for (const name of names) {
    const file = path.join(OUTBOX_DIR, name);
    const { mtimeMs } = await stat(file);
    if (mtimeMs < since) continue;
    const parsed = await simpleParser(await readFile(file));
    const to = Array.isArray(parsed.to) ? parsed.to : parsed.to ? [parsed.to] : [];
    if (!to.some((a) => a.value.some((v) => v.address?.toLowerCase() === address.toLowerCase()))) continue;
    const text = parsed.text ?? '';
    found.push({
      mtime: mtimeMs,
      mail: { subject: parsed.subject ?? '', text, links: text.match(/https?:\/\/[^\s<>"')]+/g) ?? [] },
    });
  }
  return found.sort((a, b) => a.mtime - b.mtime);
}

/**
 * Waits for the newest mail to `address` written at or after `since` (ms since epoch) that has a
 * link containing `linkFragment` (e.g. "/reset-pass/"), when one is given.
 */
export async function waitForMail(address: string, since: number, linkFragment?: string, timeoutMs = 15_000): Promise<ReceivedMail> {
  const deadline = Date.now() + timeoutMs;
  // File times have coarse resolution on some file systems; allow a little slack.
  const from = since - 1_000;
  for (;;) {
    const mails = (await mailsTo(address, from)).filter(({ mail }) => !linkFragment || mail.links.some((l) => l.includes(linkFragment)));
    if (mails.length) return mails[mails.length - 1].mail;
    if (Date.now() > deadline) throw new Error(`No mail to ${address} arrived in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The first link in the mail whose path contains `fragment` (e.g. "/activate/"). */
export function linkIn(mail: ReceivedMail, fragment: string): string {
  const link = mail.links.find((l) => l.includes(fragment));
  if (!link) throw new Error(`No ${fragment} link in mail "${mail.subject}": ${mail.links.join(', ')}`);
  return link;
}
