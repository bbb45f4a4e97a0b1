// Timing points of the bot runtime, published on node:diagnostics_channel: nothing is built or
// sent when nobody subscribes (`npm run bench:bots` does, to time the runtime's own share of an
// update's way to its reply, without Telegram's).
import diagnosticsChannel from 'node:diagnostics_channel';

/** A funnel bot's update reached the runtime (polling: in a getUpdates answer; webhook: delivered). */
export interface UpdateReceived {
  botId: number;
  /** The private chat it came from (the person's id), when there is one. */
  chatId: number | undefined;
  updateId: number;
  /** performance.now() */
  at: number;
}

/** A Bot API call was handed to the network (Telegram has not seen it yet). */
export interface BotApiCallSent {
  botId: number;
  method: string;
  chatId: unknown;
  /** performance.now() */
  at: number;
}

export const updateReceived = diagnosticsChannel.channel('funnels:runtime:update-received');
export const botApiCallSent = diagnosticsChannel.channel('funnels:bot-api:call-sent');
