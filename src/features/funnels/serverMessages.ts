// The product API's English messages (server/funnels/errors.ts, media.ts) that the screens show
// in the interface language; an unknown message is shown as the server sent it.

export type FunnelServerMessage =
  | 'malformedToken'
  | 'unknownToken'
  | 'alreadyConnected'
  | 'telegramDown'
  | 'tokenRevoked'
  | 'runWithoutStages'
  | 'runArchived'
  | 'deleteNotArchived'
  | 'orderLocked'
  | 'orderMismatch'
  | 'tooManyStages'
  | 'tooManyTags'
  | 'tagTitleTaken'
  | 'copyIntoItself'
  | 'blank'
  | 'required'
  | 'doesNotExist'
  | 'tooLong'
  | 'badButtonUrl'
  | 'fileTooBig'
  | 'unsupportedFile'
  | 'emptyFile'
  | 'notFound'
  | 'badHtml';

const EXACT: Record<string, FunnelServerMessage> = {
  'this is not a bot token. it looks like 123456789:aabc… — copy it from @botfather.': 'malformedToken',
  'telegram does not know this token. copy it again from @botfather.': 'unknownToken',
  'this bot is already connected.': 'alreadyConnected',
  'telegram is not answering. try again in a minute.': 'telegramDown',
  "telegram does not accept this bot's token any more. connect the bot again with a new token from @botfather.": 'tokenRevoked',
  'add at least one stage before running the bot.': 'runWithoutStages',
  'return the funnel from the archive before running it.': 'runArchived',
  'archive the funnel before deleting it.': 'deleteNotArchived',
  "stages can't be reordered after the bot has been run.": 'orderLocked',
  "the list must name each of the funnel's stages exactly once.": 'orderMismatch',
  'a tag with this title already exists.': 'tagTitleTaken',
  'choose another funnel to copy into.': 'copyIntoItself',
  'this field may not be blank.': 'blank',
  'this field is required.': 'required',
  'enter a valid url: http://, https:// or tg://.': 'badButtonUrl',
  'upload an image (jpeg, png, webp, gif) or a video (mp4, mov, webm).': 'unsupportedFile',
  'the submitted file is empty.': 'emptyFile',
  'not found.': 'notFound',
};

export interface KnownMessage {
  key: FunnelServerMessage;
  /** The number in the message (a limit, a size in MB), when it has one. */
  count?: number;
  /** The server's own wording, for messages whose details are technical (HTML problems). */
  detail?: string;
}

export function knownFunnelMessage(message: string): KnownMessage | null {
  const normalized = message.trim().toLowerCase();
  const exact = EXACT[normalized];
  if (exact) return { key: exact };
  let match = /^a funnel can have no more than (\d+) (stages|tags)\.$/.exec(normalized);
  if (match) return { key: match[2] === 'stages' ? 'tooManyStages' : 'tooManyTags', count: Number(match[1]) };
  match = /^ensure this field has no more than (\d+) characters\.$/.exec(normalized);
  if (match) return { key: 'tooLong', count: Number(match[1]) };
  match = /^file too big\. the file size must not exceed (\d+) mb\.$/.exec(normalized);
  if (match) return { key: 'fileTooBig', count: Number(match[1]) };
  if (/^invalid pk "\d+" - object does not exist\.$/.test(normalized)) return { key: 'doesNotExist' };
  // Telegram HTML problems (server/funnels/telegram-html.ts): technical details, kept as sent
  // under a translated lead.
  if (/^(telegram does not support the <|write "<" as|the closing tag <\/|the <|a link needs an address|only <span|a <code> tag)/.test(normalized)) {
    return { key: 'badHtml', detail: message };
  }
  return null;
}
