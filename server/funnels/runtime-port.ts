// What the domain tells the bot runtime: "this funnel changed (run, stopped, archived, deleted):
// make its bot match the database", and "this funnel's stages changed: its bot reads them again".
// The runtime (server/bots/runtime) implements it; createServices uses a no-op when none is given
// (tests of the API alone).
export interface FunnelRuntimePort {
  sync(funnelId: number): Promise<void>;
  /**
   * This funnel's stages (their order, messages or tags) were written and the write has
   * committed: its bot reads them again at once; no other funnel's copy is dropped.
   */
  stagesChanged(funnelId: number): void;
  /**
   * Since when this running funnel's bot has failed to reach Telegram (network failures or 5xx
   * for longer than a short threshold), or null. Optional: API-only tests have no runtime.
   */
  telegramUnreachableSince?(funnelId: number): Date | null;
}

export const idleFunnelRuntime: FunnelRuntimePort = {
  async sync() {},
  stagesChanged() {},
};
