import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CliError, loadDemoGateways, parseCliArgs } from '../../server/simulator/cliArgs';
import { demoFleet } from './demoFleet';

const dir = mkdtempSync(path.join(tmpdir(), 'roost-sim-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function errorOf(fn: () => unknown): CliError {
  try {
    fn();
  } catch (error) {
    if (error instanceof CliError) return error;
    throw error;
  }
  throw new Error('no error');
}

describe('simulator command line', () => {
  it('has defaults: local broker, every gateway, 60 s, seed 1, the demo file in DATA_DIR', () => {
    expect(parseCliArgs([], {})).toEqual({
      url: 'mqtt://127.0.0.1:1883',
      gateways: null,
      intervalMs: 60_000,
      seed: 1,
      file: path.join('data', 'demo-gateways.json'),
    });
    expect(parseCliArgs([], { DATA_DIR: '/srv/roost' }).file).toBe('/srv/roost/demo-gateways.json');
  });

  it('reads every flag, fractions of a second included', () => {
    const argv = [
      '--url',
      'mqtt://10.0.0.2:18883',
      '--gateways',
      '3',
      '--interval',
      '0.5',
      '--seed',
      '42',
      '--file',
      'x.json',
    ];
    expect(parseCliArgs(argv, {})).toEqual({
      url: 'mqtt://10.0.0.2:18883',
      gateways: 3,
      intervalMs: 500,
      seed: 42,
      file: 'x.json',
    });
    expect(parseCliArgs(['--interval=.05'], {}).intervalMs).toBe(50);
  });

  it.each([
    [['--gateway', '3'], /Unknown option '--gateway'/],
    [['--gateways', 'many'], /--gateways must be a whole number/],
    [['--gateways', '0'], /--gateways must be a whole number of at least 1/],
    [['--interval', '0'], /--interval must be seconds/],
    [['--interval=-1'], /--interval must be seconds/],
    [['--seed', '1.5'], /--seed must be a whole number/],
    [['--url', 'http://x'], /--url must look like mqtt:\/\/host:port/],
    [['stray'], /positional/i],
  ])('refuses %j with one line and the usage', (argv, message) => {
    const error = errorOf(() => parseCliArgs(argv, {}));
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain('\n');
    expect(error.showUsage).toBe(true);
  });

  it('tells the user to start the server in demo mode when the file is missing', () => {
    const error = errorOf(() => loadDemoGateways(path.join(dir, 'none.json'), null));
    expect(error.message).toMatch(/not found: run `npm start` once in demo mode/);
    expect(error.showUsage).toBe(false);
  });

  it('loads the file, takes the first N gateways, and refuses more than it has or a broken file', () => {
    const file = path.join(dir, 'demo-gateways.json');
    writeFileSync(file, JSON.stringify(demoFleet(Date.now())));
    expect(loadDemoGateways(file, null)).toHaveLength(42);
    expect(loadDemoGateways(file, 3).map((g) => g.houseId)).toEqual([1, 2, 3]);
    expect(errorOf(() => loadDemoGateways(file, 43)).message).toMatch(/has only 42 gateways/);
    writeFileSync(file, '{"not": "a list"');
    expect(errorOf(() => loadDemoGateways(file, null)).message).toMatch(
      /is not a demo gateways file/,
    );
    writeFileSync(file, JSON.stringify([{ networkId: 'x' }]));
    expect(errorOf(() => loadDemoGateways(file, null)).message).toMatch(
      /is not a demo gateways file \(0\.token/,
    );
  });
});
