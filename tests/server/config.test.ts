import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, envSchema, readConfig } from '../../server/config';

describe('reading the runtime environment variables', () => {
  it('has the documented defaults', () => {
    const c = readConfig({}, '/srv/roost');
    expect(c).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: '/srv/roost/data',
      databaseUrl: null,
      mqttPort: 1883,
      mqttPortIsDefault: true,
      mqttUrl: null,
      redisUrl: null,
      demo: null,
      captcha: true,
      edition: 'default',
      alarmScreen: true,
    });
  });

  it('reads every variable', () => {
    const c = readConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      DATA_DIR: '/var/lib/roost',
      DATABASE_URL: 'postgres://roost@db/roost',
      MQTT_PORT: '0',
      REDIS_URL: 'redis://127.0.0.1:6379',
      ROOST_DEMO: 'off',
      ROOST_ADMIN_PASSWORD: 'Secret123',
      ROOST_CAPTCHA: 'off',
      ROOST_EDITION: 'lihua',
      ROOST_ALARM_SCREEN: 'off',
    });
    expect(c).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      dataDir: '/var/lib/roost',
      databaseUrl: 'postgres://roost@db/roost',
      mqttPort: null,
      redisUrl: 'redis://127.0.0.1:6379',
      demo: false,
      adminPassword: 'Secret123',
      captcha: false,
      edition: 'lihua',
      alarmScreen: false,
    });
    expect(readConfig({ MQTT_URL: 'mqtt://127.0.0.1:1883' }).mqttPort).toBeNull();
  });

  it('reads the proxies to trust and the broker accounts Roost keeps', () => {
    const c = readConfig({
      ROOST_TRUSTED_PROXIES: '127.0.0.1, 10.0.0.0/8, fd00::/8',
      MQTT_URL: 'mqtts://roost:secret@broker.example.com:8883',
      ROOST_DYNSEC_USER: 'roost-admin',
      ROOST_DYNSEC_PASSWORD: 'admin-password',
    });
    expect(c.trustedProxies).toEqual(['127.0.0.1', '10.0.0.0/8', 'fd00::/8']);
    // The plugin's administrator signs in at the same broker, never as Roost's ingest user.
    expect(c.brokerAuth.dynsec).toEqual({
      url: 'mqtts://broker.example.com:8883',
      username: 'roost-admin',
      password: 'admin-password',
    });
    expect(readConfig({}).trustedProxies).toEqual([]);
  });

  it.each([
    [{ PORT: '70000' }, 'PORT must be 0–65535'],
    [{ MQTT_PORT: 'x' }, 'MQTT_PORT must be a port number'],
    [
      { DATABASE_URL: 'mysql://x' },
      'DATABASE_URL must be a URL starting with postgres:// or postgresql://',
    ],
    [{ ROOST_EDITION: 'acme' }, 'ROOST_EDITION must be one of default, lihua, huanan'],
    [{ ROOST_CAPTCHA: 'maybe' }, 'ROOST_CAPTCHA must be on or off'],
    [
      { ROOST_TRUSTED_PROXIES: '127.0.0.1, nginx.local' },
      'ROOST_TRUSTED_PROXIES: "nginx.local" is not an IP address or a CIDR range',
    ],
    [{ ROOST_TRUSTED_PROXIES: '10.0.0.0/33' }, 'ROOST_TRUSTED_PROXIES: "10.0.0.0/33"'],
    [
      { ROOST_DYNSEC_USER: 'admin', ROOST_DYNSEC_PASSWORD: 'x' },
      'ROOST_DYNSEC_USER needs MQTT_URL',
    ],
    [{ ROOST_EMQX_SECRET: 'short' }, 'ROOST_EMQX_SECRET must have at least 16 characters'],
    [{ REDIS_URL: 'http://x' }, 'REDIS_URL must be a URL starting with redis:// or rediss://'],
  ])('refuses %o with one line naming the variable', (env, message) => {
    expect(() => readConfig(env)).toThrow(ConfigError);
    expect(() => readConfig(env)).toThrow(message);
  });

  it('has every variable in .env.example, each with a comment above it', () => {
    const lines = readFileSync('.env.example', 'utf8').split('\n');
    for (const key of Object.keys(envSchema.shape)) {
      const at = lines.findIndex((l) => l.startsWith(`#${key}=`) || l.startsWith(`${key}=`));
      expect(at, key).toBeGreaterThan(0);
      expect(lines[at - 1], key).toMatch(/^# \S/);
    }
  });

  it('reads MQTT over TLS only with both files, and only for the embedded broker', () => {
    expect(readConfig({ MQTT_TLS_CERT: 'c.pem', MQTT_TLS_KEY: 'k.pem' }, '/srv').mqttTls).toEqual({
      certFile: '/srv/c.pem',
      keyFile: '/srv/k.pem',
      port: 8883,
    });
    expect(() => readConfig({ MQTT_TLS_CERT: 'c.pem' })).toThrow(/MQTT_TLS_KEY go together/);
    expect(() =>
      readConfig({ MQTT_TLS_CERT: 'c.pem', MQTT_TLS_KEY: 'k.pem', MQTT_URL: 'mqtt://x:1883' }),
    ).toThrow(/with MQTT_URL, set up TLS at that broker/);
  });
});
