import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DynsecControl } from '../../server/brokerAuth/dynsecControl';
import { listening } from '../helpers/listening';
import { freePort } from '../helpers/processes';

export const DYNSEC_ADMIN = { username: 'dynsec-admin', password: 'dynsec-admin-password' };
export const ROOST_USER = { username: 'roost', password: 'roost-password-1234' };

export interface DynsecMosquitto {
  port: number;
  /** Roost's own ingest user's address (MQTT_URL). */
  roostUrl: string;
  /** The plugin, as its administrator: a person changing accounts behind Roost's back. */
  control: DynsecControl;
  stop(): Promise<void>;
}

/**
 * A Mosquitto of the test's own with Debian's dynamic security plugin, its file made by
 * `mosquitto_ctrl dynsec init`, and Roost's ingest user holding `roost/v1/#` as a deployment
 * gives it.
 */
export async function startDynsecMosquitto(): Promise<DynsecMosquitto> {
  const dir = mkdtempSync(path.join(tmpdir(), 'roost-dynsec-'));
  const port = await freePort();
  const file = path.join(dir, 'dynamic-security.json');
  const init = spawnSync('mosquitto_ctrl', [
    'dynsec',
    'init',
    file,
    DYNSEC_ADMIN.username,
    DYNSEC_ADMIN.password,
  ]);
  if (init.status !== 0) throw new Error(`mosquitto_ctrl dynsec init: ${init.stderr.toString()}`);
  const conf = path.join(dir, 'mosquitto.conf');
  writeFileSync(
    conf,
    [
      `listener ${port} 127.0.0.1`,
      'allow_anonymous false',
      'plugin /usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so',
      `plugin_opt_config_file ${file}`,
      'persistence false',
      'log_dest none',
      'user root',
    ].join('\n') + '\n',
  );
  const child: ChildProcess = spawn('mosquitto', ['-c', conf], { stdio: 'ignore' });
  await new Promise<void>((resolve, reject) => {
    child.once('error', (error) =>
      reject(new Error(`mosquitto could not start (${error.message}): apt-get install mosquitto`)),
    );
    void listening(port).then(resolve, reject);
  });
  const url = `mqtt://127.0.0.1:${port}`;
  const control = await DynsecControl.connect(url, DYNSEC_ADMIN.username, DYNSEC_ADMIN.password);
  await control.run({
    command: 'createRole',
    rolename: 'roost-server',
    acls: [
      { acltype: 'publishClientSend', topic: 'roost/v1/#', allow: true },
      { acltype: 'publishClientReceive', topic: 'roost/v1/#', allow: true },
      { acltype: 'subscribePattern', topic: 'roost/v1/#', allow: true },
      // Every Roost process reads through a shared subscription.
      { acltype: 'subscribePattern', topic: '$share/+/roost/v1/#', allow: true },
    ],
  });
  await control.run({
    command: 'createClient',
    ...ROOST_USER,
    roles: [{ rolename: 'roost-server' }],
  });
  return {
    port,
    roostUrl: `mqtt://${ROOST_USER.username}:${ROOST_USER.password}@127.0.0.1:${port}`,
    control,
    async stop() {
      await control.close();
      const exited = new Promise((r) => child.once('exit', r));
      child.kill();
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
