// Types of support.mjs, for the benches written in TypeScript (open.ts).
export const CHROMIUM_ARGS: string[];

export interface BenchServer {
  base: string;
  dataDir: string;
  stop(): Promise<void>;
}

export function startServer(options: { port: number; env?: Record<string, string>; startSeconds?: number }): Promise<BenchServer>;

export function activeUserToken(server: BenchServer, email?: string, password?: string): Promise<string>;
