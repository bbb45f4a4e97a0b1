import { describe, expect, it } from 'vitest';
import { knownFunnelMessage } from './serverMessages';

describe('knownFunnelMessage', () => {
  it('knows the connect errors', () => {
    expect(knownFunnelMessage('Telegram does not know this token. Copy it again from @BotFather.')?.key).toBe('unknownToken');
    expect(knownFunnelMessage('This bot is already connected.')?.key).toBe('alreadyConnected');
    expect(knownFunnelMessage('Telegram is not answering. Try again in a minute.')?.key).toBe('telegramDown');
    expect(knownFunnelMessage('This is not a bot token. It looks like 123456789:AAbc… — copy it from @BotFather.')?.key).toBe('malformedToken');
  });

  it('reads the numbers out of limits', () => {
    expect(knownFunnelMessage('File too big. The file size must not exceed 50 MB.')).toEqual({ key: 'fileTooBig', count: 50 });
    expect(knownFunnelMessage('Ensure this field has no more than 1024 characters.')).toEqual({ key: 'tooLong', count: 1024 });
    expect(knownFunnelMessage('A funnel can have no more than 100 tags.')).toEqual({ key: 'tooManyTags', count: 100 });
  });

  it('keeps the details of HTML problems and leaves the unknown alone', () => {
    expect(knownFunnelMessage('The <b> tag is not closed.')).toEqual({ key: 'badHtml', detail: 'The <b> tag is not closed.' });
    expect(knownFunnelMessage('Something new.')).toBeNull();
  });
});
