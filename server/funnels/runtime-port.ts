// What the HTTP API tells the bot runtime: "this funnel changed (run, stopped, archived,
// deleted): make its bot match the database", and "what the bots send may have changed". The runtime (server/bots/runtime) implements it;
// buildApp uses a no-op when none is given (tests of the API alone).
export interface FunnelRuntimePort {
  sync(funnelId: number): Promise<void>;
  /** Stages, messages or tags may have changed (a write through the API): read them again. */
  contentChanged(): void;
}

export const idleFunnelRuntime: FunnelRuntimePort = {
  async sync() {},
  contentChanged() {},
};
