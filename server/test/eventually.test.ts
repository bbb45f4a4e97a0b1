// The shared wait: a process that exits fails the wait at once with its output, instead of the
// test sitting out its timeout; a timeout names what never happened and shows the output too.
import { describe, expect, it } from 'vitest';
import { eventually, until, whileRunning } from './eventually';

describe('eventually', () => {
  it('fails at once, with the output, when the watched process has exited', async () => {
    const exited = { child: { exitCode: 1 }, output: () => 'Error: port 8000 in use' };
    const started = Date.now();
    await expect(until(() => false, 'the server to answer', whileRunning(exited, 10_000))).rejects.toThrow(
      /While waiting for the server to answer: the process exited \(1\):\nError: port 8000 in use/,
    );
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('on a timeout names what it waited for, the last value read and the explanation', async () => {
    const running = { child: { exitCode: null }, output: () => 'listening on 8000' };
    await expect(eventually(() => 3, (n) => n > 5, 'five sends', whileRunning(running, 100, 10))).rejects.toThrow(
      /Timed out after 100 ms waiting for five sends \(last: 3\)\nlistening on 8000/,
    );
  });

  it('gives up at the timeout given in the options', { timeout: 2_000 }, async () => {
    await expect(eventually(() => 0, (n) => n > 0, 'a send', { timeoutMs: 50, pollMs: 5 })).rejects.toThrow(/Timed out after 50 ms waiting for a send \(last: 0\)/);
  });
});
