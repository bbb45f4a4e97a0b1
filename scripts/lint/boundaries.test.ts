// The architecture's boundaries are ESLint rules (eslint.config.js); this proves each one fires:
// a probe file that breaks it is linted as if it stood in the folder it names, and the rule must
// report it, while the same folder's allowed imports pass. A second test checks that every folder
// of server/ and src/ has a zone of its own, so a new folder cannot slip in unguarded.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint, type Linter } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(fileURLToPath(new URL('../..', import.meta.url)));
let eslint: ESLint;

beforeAll(() => {
  // A probe exists only as text: import/no-cycle reads the importer from disk, so it sits this out.
  eslint = new ESLint({ cwd: root, overrideConfig: { rules: { 'import/no-cycle': 'off' } } });
});

/** The boundary messages ESLint gives a probe standing at `file` (relative to the project). */
async function boundaryMessages(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result.messages
    .filter((m) => m.ruleId === 'import/no-restricted-paths' || m.ruleId?.endsWith('no-restricted-imports'))
    .map((m) => m.message);
}

interface Probe {
  rule: string;
  file: string;
  breaks: string;
  /** What the rule's message says. */
  says: RegExp;
  /** An import the same file may make. */
  allowed: string;
}

const PROBES: Probe[] = [
  {
    rule: 'outbox never imports bots/',
    file: 'server/outbox/probe.ts',
    breaks: "import { FunnelRuntime } from '../bots/runtime/runtime';\nexport const probe = FunnelRuntime;\n",
    says: /delivery core never reaches into the bot runtime/,
    allowed: "import { BotRateLimits } from '../telegram/rate-limiter';\nimport type { Db } from '../db';\nexport const probe = BotRateLimits;\nexport type P = Db;\n",
  },
  {
    rule: 'telegram never imports bots/',
    file: 'server/telegram/probe.ts',
    breaks: "import { FunnelRuntime } from '../bots/runtime/runtime';\nexport const probe = FunnelRuntime;\n",
    says: /delivery core never reaches into the bot runtime/,
    allowed: "import type { Db } from '../db';\nexport type P = Db;\n",
  },
  {
    rule: 'the engine imports no service',
    file: 'server/outbox/probe.ts',
    breaks: "import { createMailingService } from '../mailings/mailings';\nexport const probe = createMailingService;\n",
    says: /tells the domain through its ports/,
    allowed: "import { nextStepData } from '../messages/render';\nexport const probe = nextStepData;\n",
  },
  {
    rule: 'the schema never imports a service',
    file: 'server/db/schema.ts',
    breaks: "import { createTemplateService } from '../templates/templates';\nexport const probe = createTemplateService;\n",
    says: /import no service/,
    allowed: "import { loadConfig } from '../config';\nexport const probe = loadConfig;\n",
  },
  {
    rule: 'the domain never imports HTTP',
    file: 'server/mailings/probe.ts',
    breaks: "import { ApiError } from '../http/errors';\nexport const probe = ApiError;\n",
    says: /domain knows no HTTP/,
    allowed: "import type { Db } from '../db';\nexport type P = Db;\n",
  },
  {
    rule: 'the domain never imports the HTTP framework',
    file: 'server/funnels/probe.ts',
    breaks: "import Fastify from 'fastify';\nexport const probe = Fastify;\n",
    says: /domain knows no HTTP/,
    allowed: "import { Type } from '@sinclair/typebox';\nexport const probe = Type;\n",
  },
  {
    rule: 'the domain never imports a Telegram client (server/telegram/)',
    file: 'server/letters/probe.ts',
    breaks: "import { BotRateLimits } from '../telegram/rate-limiter';\nexport const probe = BotRateLimits;\n",
    says: /no Telegram client/,
    allowed: "import type { Db } from '../db';\nexport type P = Db;\n",
  },
  {
    rule: 'the domain never imports a Telegram client (grammY)',
    file: 'server/funnels/probe.ts',
    breaks: "import { Api } from 'grammy';\nexport const probe = Api;\n",
    says: /no Telegram client/,
    allowed: "import type { Message } from 'grammy/types';\nexport type P = Message;\n",
  },
  {
    rule: 'the domain never imports the bot runtime',
    file: 'server/crm/probe.ts',
    breaks: "import { FunnelRuntime } from '../bots/runtime/runtime';\nexport const probe = FunnelRuntime;\n",
    says: /domain knows no HTTP and no Telegram client/,
    allowed: "import { nextStepData } from '../messages/render';\nexport const probe = nextStepData;\n",
  },
  {
    rule: 'the API reaches the engine and Telegram only through the services',
    file: 'server/http/funnels/probe.ts',
    breaks: "import { interactiveBotApi } from '../../telegram/client';\nexport const probe = interactiveBotApi;\n",
    says: /through the services/,
    allowed: "import type { Services } from '../../services';\nexport type P = Services;\n",
  },
  {
    rule: 'production code never imports test helpers',
    file: 'server/mailings/probe.ts',
    breaks: "import { eventually } from '../test/eventually';\nexport const probe = eventually;\n",
    says: /Test helpers are for tests/,
    allowed: "import type { Db } from '../db';\nexport type P = Db;\n",
  },
  {
    rule: 'features never import each other',
    file: 'src/features/mailings/Probe.tsx',
    breaks: "import { FunnelScreen } from '@/features/funnels/FunnelScreen';\nexport const probe = FunnelScreen;\n",
    says: /No feature imports another/,
    allowed: "import { Screen } from '@/ui/Screen';\nexport const probe = Screen;\n",
  },
  {
    rule: 'shared UI never imports a feature',
    file: 'src/ui/Probe.tsx',
    breaks: "import { FunnelScreen } from '@/features/funnels/FunnelScreen';\nexport const probe = FunnelScreen;\n",
    says: /shared UI never imports a feature/,
    allowed: "import { Screen } from './Screen';\nexport const probe = Screen;\n",
  },
  {
    rule: 'the SPA never imports the server',
    file: 'src/api/probe.ts',
    breaks: "import { loadConfig } from '../../server/config';\nexport const probe = loadConfig;\n",
    says: /SPA never imports server code/,
    allowed: "import { ROUTES } from '../../contract/routes';\nexport const probe = ROUTES;\n",
  },
];

describe('each boundary fires on a probe file', () => {
  for (const probe of PROBES) {
    it(probe.rule, async () => {
      const broken = await boundaryMessages(probe.file, probe.breaks);
      expect(broken.some((message) => probe.says.test(message)), `${probe.file} should be refused: ${JSON.stringify(broken)}`).toBe(true);
      expect(await boundaryMessages(probe.file, probe.allowed)).toEqual([]);
    });
  }
});

type Zone = { target: string | string[]; from: string | string[] };
const list = (value: string | string[]) => (Array.isArray(value) ? value : [value]);
const dirs = (folder: string) =>
  readdirSync(path.join(root, folder), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `./${folder}/${entry.name}`);

describe('every folder has a boundary', () => {
  it('each folder of server/, src/ and src/features/ is named by a zone of its own', async () => {
    const config = (await eslint.calculateConfigForFile(path.join(root, 'server/app.ts'))) as Linter.Config;
    const [, options] = config.rules!['import/no-restricted-paths'] as [unknown, { zones: Zone[] }];
    const named = new Set(options.zones.flatMap((zone) => [...list(zone.target), ...list(zone.from)]));
    const folders = [...dirs('server'), ...dirs('src'), ...dirs('src/features')].filter((folder) => folder !== './src/features');
    const unguarded = folders.filter((folder) => !named.has(folder) && !(folder.startsWith('./src/features/') && named.has('./src/features')));
    expect(unguarded).toEqual([]);
  });
});
