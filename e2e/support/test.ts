// `test` and `expect` for every spec: a test fails when any page it opens logs a console error or
// throws an uncaught error, with the messages in the failure. An error a test provokes on purpose
// (a 4xx the browser logs as "Failed to load resource") is allowed for that test only: in the test,
// `allowConsoleError(failedRequest(400, '/api/token/login/'))`, or for a describe,
// `test.use({ allowedConsoleErrors: [...] })`. An allowance that never matched fails the test too,
// so none outlives the error it was written for.
import { test as base, type BrowserContext, type ConsoleMessage } from '@playwright/test';

export { expect } from '@playwright/test';
export type { APIRequestContext, Locator, Page } from '@playwright/test';

type ConsoleErrorOptions = {
  /** Patterns of the console errors this test provokes on purpose. */
  allowedConsoleErrors: readonly RegExp[];
};

type ConsoleErrorWatch = {
  /** This test's allowances: the option's, and those it adds with allowConsoleError. */
  consoleErrorAllowances: RegExp[];
  /** Allows, for this test, the console errors matching `pattern` (see failedRequest). */
  allowConsoleError: (pattern: RegExp) => void;
  /** Auto fixture: collects every page's errors and fails the test on those not allowed. */
  failOnConsoleErrors: void;
};

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * What Chromium logs for a request the server refused with `status` (or that could not connect:
 * 'refused'), to an address whose path is `apiPath` (a pattern when it holds an id the test does
 * not know; the query string aside).
 */
export function failedRequest(status: number | 'refused', apiPath: string | RegExp): RegExp {
  const outcome = status === 'refused' ? 'net::ERR_CONNECTION_REFUSED' : `the server responded with a status of ${status} `;
  const pathPattern = typeof apiPath === 'string' ? escapeRegExp(apiPath) : apiPath.source;
  return new RegExp(`Failed to load resource: ${escapeRegExp(outcome)}.*\\(https?://[^/]+${pathPattern}(\\?[^)]*)?:\\d+\\)$`);
}

function describeConsoleMessage(message: ConsoleMessage): string {
  const { url, lineNumber } = message.location();
  const where = url ? ` (${url}:${lineNumber})` : '';
  return `console.error on ${message.page()?.url() ?? 'a page'}: ${message.text()}${where}`;
}

export const test = base.extend<ConsoleErrorOptions & ConsoleErrorWatch>({
  allowedConsoleErrors: [[], { option: true }],
  consoleErrorAllowances: async ({ allowedConsoleErrors }, use) => {
    await use([...allowedConsoleErrors]);
  },
  allowConsoleError: async ({ consoleErrorAllowances }, use) => {
    await use((pattern) => {
      consoleErrorAllowances.push(pattern);
    });
  },
  failOnConsoleErrors: [
    async ({ context, browser, consoleErrorAllowances }, use) => {
      const logged: string[] = [];
      const record = (text: string) => logged.push(text);
      const watch = (watched: BrowserContext) => {
        watched.on('console', (message) => {
          if (message.type() === 'error') record(describeConsoleMessage(message));
        });
        watched.on('weberror', (webError) => {
          const error = webError.error();
          record(`uncaught error on ${webError.page()?.url() ?? 'a page'}: ${error.stack ?? error.message}`);
        });
      };
      watch(context);
      // A context a test opens itself (a second user) is watched the same way.
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (...args: Parameters<typeof browser.newContext>) => {
        const opened = await newContext(...args);
        watch(opened);
        return opened;
      };
      try {
        await use();
      } finally {
        browser.newContext = newContext;
      }
      // Read now that the test has ended: an allowance may follow the error it allows.
      const errors = logged.filter((text) => !consoleErrorAllowances.some((pattern) => pattern.test(text)));
      const unusedAllowances = consoleErrorAllowances.filter((pattern) => !logged.some((text) => pattern.test(text)));
      const problems = [
        ...errors,
        ...unusedAllowances.map((pattern) => `allowedConsoleErrors: ${pattern} never appeared; remove the allowance`),
      ];
      if (problems.length > 0) throw new Error(`The pages logged errors:\n${problems.join('\n')}`);
    },
    { auto: true },
  ],
});
