// What the HTTP API tells the bot runtime: "this funnel changed (run, stopped, archived,
// deleted): make its bot match the database". The runtime (server/bots/runtime) implements it;
// buildApp uses a no-op when none is given (tests of the API alone).
export interface FunnelRuntimePort {
  sync(funnelId: number): Promise<void>;
}

export const idleFunnelRuntime: FunnelRuntimePort = {
  async sync() {},
};
